package playground

import (
	"context"
	"fmt"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

func (o *Orchestrator) startServices(ctx context.Context) error {
	cache := o.World.Service("cache")
	for _, s := range o.World.Services {
		for i, in := range s.Instances {
			argv := []string{o.bin("demo-service"), s.Kind, "-listen", in.Addr()}
			for _, a := range s.Args {
				if a == "{cache}" && cache != nil {
					a = cache.Instances[0].URL()
				}
				argv = append(argv, a)
			}
			name := s.Job
			if len(s.Instances) > 1 {
				name = fmt.Sprintf("%s-%d", s.Job, i)
			}
			if s.Cgroup != nil && o.Cgroups != nil {
				g, err := o.Cgroups.Create(s.Cgroup.Name(), s.Cgroup.CPUs, 100*time.Millisecond)
				if err != nil {
					return err
				}
				o.groups = append(o.groups, g)
				if s.Cgroup.Shares > 0 {
					if err := g.SetShares(s.Cgroup.Shares); err != nil {
						return err
					}
				}
				// exec-in joins the group before it execs the service.
				argv = append([]string{o.bin("cgroup-helper"), "exec-in", "-parent", o.World.CgroupParent, "-name", s.Cgroup.Name(), "--"}, argv...)
			}
			proc, err := o.Sup.Start(name, s.Quiet, nil, argv...)
			if err != nil {
				return err
			}
			if err := promkit.WaitHTTP(ctx, proc, in.URL()+"/admin", 20*time.Second); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			how := ""
			if s.Cgroup != nil && o.Cgroups != nil {
				how = fmt.Sprintf(" in cgroup %s/%s", o.World.CgroupParent, s.Cgroup.Name())
				if s.Cgroup.CPUs > 0 {
					how += fmt.Sprintf(" (CFS quota %.2g cores)", s.Cgroup.CPUs)
				}
				if s.Cgroup.Shares > 0 {
					how += fmt.Sprintf(" (cpu.shares %d)", s.Cgroup.Shares)
				}
			}
			o.Logf("    %-10s %s%s", name, in.URL(), how)
		}
	}
	return nil
}

func (o *Orchestrator) startSidecars(ctx context.Context) error {
	if err := o.startKubeState(ctx); err != nil {
		return err
	}
	if o.Cgroups != nil {
		addr := fmt.Sprintf("127.0.0.1:%d", o.World.Ports.Exporter)
		proc, err := o.Sup.Start("container-exporter", false, nil, o.bin("container-exporter"),
			"-listen", addr, "-parent", o.World.CgroupParent, "-namespace", o.World.Namespace)
		if err != nil {
			return err
		}
		if err := promkit.WaitHTTP(ctx, proc, "http://"+addr+"/metrics", 30*time.Second); err != nil {
			return fmt.Errorf("container-exporter: %w", err)
		}
		o.Logf("    %-10s http://%s/metrics (cAdvisor v0.52.1)", "cadvisor", addr)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", o.World.Ports.Profiles)
	argv := []string{o.bin("profile-store"), "-listen", addr}
	for _, t := range o.profileTargets() {
		argv = append(argv, "-target", t)
	}
	proc, err := o.Sup.Start("profile-store", false, nil, argv...)
	if err != nil {
		return err
	}
	if err := promkit.WaitHTTP(ctx, proc, "http://"+addr+"/services", 20*time.Second); err != nil {
		return fmt.Errorf("profile-store: %w", err)
	}
	o.Logf("    %-10s http://%s (profile store, a stand-in for Pyroscope)", "profiles", addr)
	return nil
}

// profileTargets names each instance for the profile store by its job: the
// store merges a service's instances, as a Pyroscope query on service_name
// does, so the outlier instance's extra work shows in its service's profile.
func (o *Orchestrator) profileTargets() []string {
	var out []string
	for _, s := range o.World.Services {
		for _, in := range s.Instances {
			out = append(out, s.Job+"="+in.URL())
		}
	}
	return out
}

func (o *Orchestrator) startLoad() error {
	argv := []string{o.bin("loadgen"), "-duration", o.Opt.Duration.String(), "-report", "1m"}
	for _, t := range o.World.LoadTargets() {
		argv = append(argv, "-target", fmt.Sprintf("%s=%s@%s", t.Name, t.URL, t.Rate))
	}
	_, err := o.Sup.Start("loadgen", false, nil, argv...)
	return err
}
