package playground

import (
	"context"
	"fmt"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

func (p *Processes) startServices(ctx context.Context) error {
	cache := p.World.Service("cache")
	for _, s := range p.World.Services {
		for i, in := range s.Instances {
			argv := []string{p.bin("demo-service"), s.Kind, "-listen", in.Addr()}
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
			if s.Cgroup != nil && p.Cgroups != nil {
				g, err := p.Cgroups.Create(s.Cgroup.Name(), s.Cgroup.CPUs, 100*time.Millisecond)
				if err != nil {
					return err
				}
				p.groups = append(p.groups, g)
				if s.Cgroup.Shares > 0 {
					if err := g.SetShares(s.Cgroup.Shares); err != nil {
						return err
					}
				}
				// exec-in joins the group before it execs the service.
				argv = append([]string{p.bin("cgroup-helper"), "exec-in", "-parent", p.World.CgroupParent, "-name", s.Cgroup.Name(), "--"}, argv...)
			}
			proc, err := p.Sup.Start(name, s.Quiet, nil, argv...)
			if err != nil {
				return err
			}
			if err := promkit.WaitHTTP(ctx, proc, in.URL()+"/admin", 20*time.Second); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			how := ""
			if s.Cgroup != nil && p.Cgroups != nil {
				how = fmt.Sprintf(" in cgroup %s/%s", p.World.CgroupParent, s.Cgroup.Name())
				if s.Cgroup.CPUs > 0 {
					how += fmt.Sprintf(" (CFS quota %.2g cores)", s.Cgroup.CPUs)
				}
				if s.Cgroup.Shares > 0 {
					how += fmt.Sprintf(" (cpu.shares %d)", s.Cgroup.Shares)
				}
			}
			p.Logf("    %-10s %s%s", name, in.URL(), how)
		}
	}
	return nil
}

func (p *Processes) startSidecars(ctx context.Context) error {
	if err := p.startKubeState(ctx); err != nil {
		return err
	}
	if p.Cgroups != nil {
		addr := fmt.Sprintf("127.0.0.1:%d", p.World.Ports.Exporter)
		proc, err := p.Sup.Start("container-exporter", false, nil, p.bin("container-exporter"),
			"-listen", addr, "-parent", p.World.CgroupParent, "-namespace", p.World.Namespace)
		if err != nil {
			return err
		}
		if err := promkit.WaitHTTP(ctx, proc, "http://"+addr+"/metrics", 30*time.Second); err != nil {
			return fmt.Errorf("container-exporter: %w", err)
		}
		p.Logf("    %-10s http://%s/metrics (cAdvisor v0.52.1)", "cadvisor", addr)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", p.World.Ports.Profiles)
	argv := []string{p.bin("profile-store"), "-listen", addr}
	for _, t := range p.profileTargets() {
		argv = append(argv, "-target", t)
	}
	proc, err := p.Sup.Start("profile-store", false, nil, argv...)
	if err != nil {
		return err
	}
	if err := promkit.WaitHTTP(ctx, proc, "http://"+addr+"/services", 20*time.Second); err != nil {
		return fmt.Errorf("profile-store: %w", err)
	}
	p.Logf("    %-10s http://%s (profile store, a stand-in for Pyroscope)", "profiles", addr)
	return nil
}

// profileTargets names each instance for the profile store by its job: the
// store merges a service's instances, as a Pyroscope query on service_name
// does, so the outlier instance's extra work shows in its service's profile.
func (p *Processes) profileTargets() []string {
	var out []string
	for _, s := range p.World.Services {
		for _, in := range s.Instances {
			out = append(out, s.Job+"="+in.URL())
		}
	}
	return out
}

func (p *Processes) startLoad() error {
	argv := []string{p.bin("loadgen"), "-duration", p.Opt.Duration.String(), "-report", "1m"}
	for _, t := range p.World.LoadTargets() {
		argv = append(argv, "-target", fmt.Sprintf("%s=%s@%s", t.Name, t.URL, t.Rate))
	}
	_, err := p.Sup.Start("loadgen", false, nil, argv...)
	return err
}
