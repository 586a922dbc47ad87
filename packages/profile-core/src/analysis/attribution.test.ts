import { readFileSync } from 'fs';
import { join } from 'path';

import { fromAscii } from '../testing/ascii';
import { attributeSelf, callPathOf, isPlumbing, isProfiler, isRuntimeThread, isVmEntry, mainVia, originOf, serviceCodeNames } from './attribution';
import { diffTrees } from './mergeDiff';
import { changesByUnit, checkCount } from './perRequest';
import { pprofToTree } from '../readers/pprof';
import { topTable } from './topTable';
import { Tree } from '../tree/tree';

const FIXTURES = join(__dirname, '../../../../tests/fixtures');
const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));
const selfOf = (t: Tree, name: string, right = false) => topTable(t).find((r) => r.name === name)?.[right ? 'selfRight' : 'self'] ?? 0;
const sum = (a: ArrayLike<number>) => Array.from(a).reduce((x, y) => x + y, 0);

/** The gzip story's CPU: the runtime clears the memory flate.NewWriter asked for. */
const gzipCpu = () =>
  diffTrees(
    fromAscii(`
total 100
└─ main.handler 100
   ├─ main.render 90
   └─ compress/flate.NewWriter 10
      └─ runtime.mallocgc 8
         └─ runtime.memclrNoHeapPointers 6
`),
    fromAscii(`
total 300
├─ main.handler 280
│  ├─ main.render 90
│  └─ compress/flate.NewWriter 190
│     └─ runtime.mallocgc 185
│        └─ runtime.memclrNoHeapPointers 150
└─ runtime.gcBgMarkWorker 20
`)
  );

describe('attributeSelf', () => {
  it('charges runtime self time to the nearest caller outside the runtime, and names the frame it came through', () => {
    const a = attributeSelf(gzipCpu());
    expect(selfOf(a.tree, 'compress/flate.NewWriter', true)).toBe(190);
    expect(selfOf(a.tree, 'runtime.memclrNoHeapPointers', true)).toBe(0);
    expect(selfOf(a.tree, 'runtime.gcBgMarkWorker', true)).toBe(20); // no caller to charge: it stays
    expect(mainVia(a, 'compress/flate.NewWriter', 3)).toBe('runtime.memclrNoHeapPointers');
    const rows = changesByUnit(a.tree, 'per-request', { baseline: checkCount(100), comparison: checkCount(100) });
    expect(rows[0].name).toBe('compress/flate.NewWriter');
    // without attribution the first row is the runtime's
    expect(changesByUnit(gzipCpu(), 'per-request', { baseline: checkCount(100), comparison: checkCount(100) })[0].name).toBe('runtime.memclrNoHeapPointers');
  });

  it('keeps the tree, its totals and the sum of self on both sides', () => {
    const d = gzipCpu();
    const a = attributeSelf(d);
    expect(a.tree.total).toEqual(d.total);
    expect(a.tree.totalRight).toEqual(d.totalRight);
    expect(sum(a.tree.self)).toBeCloseTo(sum(d.self));
    expect(sum(a.tree.selfRight!)).toBeCloseTo(sum(d.selfRight!));
    expect(d.self).not.toBe(a.tree.self); // the input is not changed
  });

  it('a function whose own self dominates is its own answer (no via)', () => {
    const t = fromAscii(`
total 100
└─ main.parse 100
   └─ runtime.memmove 5
`);
    expect(mainVia(attributeSelf(t), 'main.parse', 95)).toBeUndefined();
  });

  it('the busy loop: the path from the syscall to the code that loops', () => {
    const t = pprofToTree(fixture('epoll-incident.cpu.pb.gz'), 'cpu').tree;
    const top = topTable(t)[0].name;
    const path = callPathOf(t, top);
    expect(path[0]).toMatch(/Syscall6$/);
    expect(path).toContain('golang.org/x/sys/unix.EpollWait');
    expect(path[path.length - 1]).toMatch(/\(\*EventLoop\)\.Run$/);
  });
});

describe('attribution on every runtime of the pprof corpus', () => {
  const manifest = readFileSync(join(FIXTURES, 'corpus/MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'))
    .filter(([path]) => !path.startsWith('legacy/') && !path.startsWith('jfr/'));
  // per runtime: a plumbing frame of that runtime's capture, and the caller it must be charged to
  const expected: Record<string, { file: string; from: string; to: string }> = {
    'C++': { file: 'google-pprof/cppbench.cpu.pb.gz', from: '[libc-2.15.so]', to: '[cppbench_server_main]' },
    Go: { file: '../println-incident.cpu.pb.gz', from: 'runtime.memmove', to: 'fmt.(*buffer).writeString' },
    'Java (JFR)': { file: 'java/example.cpu.pb.gz', from: 'libsystem_platform.dylib._platform_bzero$VARIANT$Haswell', to: 'App.fib' },
    Java: { file: 'java/async-profiler.cpu.pb.gz', from: 'sun/misc/Unsafe.park', to: 'java/util/concurrent/locks/LockSupport.park' },
    Rust: { file: 'rust/rust.cpu.pb.gz', from: 'core::ptr::copy_nonoverlapping', to: 'rust_workload::sort_numbers' },
    Ruby: { file: 'ruby/ruby.wall.pb.gz', from: '(unknown) [c function]', to: 'sort_numbers' },
    'Node.js': { file: 'node/node.wall.pb.gz', from: 'Garbage Collection', to: '' },
  };
  const runtimes = new Set(manifest.map(([, runtime]) => runtime.split(' ')[0] === 'Java' && runtime.includes('JFR') ? 'Java (JFR)' : runtime.split(' ')[0]));

  it.each(manifest.map(([path, runtime]) => [runtime, path]))('%s %s: self is conserved, no plumbing frame under code keeps self', (_runtime, path) => {
    const { tree } = pprofToTree(fixture(`corpus/${path}`));
    const a = attributeSelf(tree);
    expect(sum(a.tree.self)).toBeCloseTo(sum(tree.self), 0);
    for (let i = 1; i < tree.size; i++) {
      if (a.tree.self[i] > 0 && isPlumbing(tree.names[tree.nameId[i]])) {
        // kept only where no ancestor is code
        for (let p = tree.parent[i]; p > 0; p = tree.parent[p]) {
          expect(isPlumbing(tree.names[tree.nameId[p]])).toBe(true);
        }
      }
    }
  });

  it('covers every runtime the corpus holds', () => {
    for (const r of runtimes) {
      expect([...Object.keys(expected), 'Python']).toContain(r);
    }
  });

  it.each(Object.entries(expected))('%s: the runtime or libc frame is charged to the code that called it', (_runtime, { file, from, to }) => {
    const path = file.startsWith('../') ? file.slice(3) : `corpus/${file}`;
    const { tree } = pprofToTree(fixture(path));
    expect(isPlumbing(from)).toBe(true);
    const before = selfOf(tree, from);
    expect(before).toBeGreaterThan(0);
    const a = attributeSelf(tree);
    if (to) {
      expect(selfOf(a.tree, to)).toBeGreaterThan(selfOf(tree, to));
      expect(a.via.get(to)?.from.get(from)?.[0]).toBeGreaterThan(0);
    }
    expect(selfOf(a.tree, from)).toBeLessThanOrEqual(before);
  });

  it('Python: ddtrace names hold no plumbing, attribution changes nothing', () => {
    const { tree } = pprofToTree(fixture('corpus/python/python.ddtrace.pprof.zst'));
    expect(Array.from(attributeSelf(tree).tree.self)).toEqual(Array.from(tree.self));
  });

  it('code is never plumbing: user functions and standard-library code that is not an allocator or syscall path', () => {
    for (const n of ['compress/flate.NewWriter', 'fmt.Println', 'main.(*EventLoop).Run', 'readConfig', 'freeList.pop', 'java/util/regex/Matcher.reset', 'rust_workload::sort_numbers', 'sortNumbers', 'block in sort_numbers', 'runtime_test.helper']) {
      expect([n, isPlumbing(n)]).toEqual([n, false]);
    }
    for (const n of ['runtime.mallocgc', 'syscall.Syscall6', 'golang.org/x/sys/unix.EpollWait', 'internal/runtime/syscall/linux.Syscall6', '__memcpy_avx_unaligned_erms', 'epoll_wait', 'libc.so.6.__futex_abstimed_wait_cancelable64', '.futex_wait', 'tcmalloc::CentralFreeList::Populate', 'alloc::raw_vec::finish_grow', '<u64 as core::cmp::PartialOrd>::lt', 'gcWriteBarrier', 'gcWriteBarrier2']) {
      expect([n, isPlumbing(n)]).toEqual([n, true]);
    }
  });

  it('the profiler\'s own frames are told apart from the code it profiles', () => {
    for (const n of ['internal/profile.(*profileMerger).mapSample', 'runtime/pprof.(*profileBuilder).build', 'net/http/pprof.collectProfile', 'github.com/google/pprof/profile.(*Profile).postDecode', 'github.com/grafana/pyroscope-go/godeltaprof/internal/pprof.(*DeltaHeapProfiler).WriteHeapProto', 'github.com/grafana/pyroscope-go.(*Session).takeSnapshots', 'one.profiler.AsyncProfiler.execute0']) {
      expect([n, isProfiler(n)]).toEqual([n, true]);
    }
    for (const n of ['compress/flate.NewWriter', 'main.profileHandler', 'github.com/acme/profile.Load', 'runtime.mallocgc', 'internal/profilerecord.Stack', 'net/http.(*conn).serve']) {
      expect([n, isProfiler(n)]).toEqual([n, false]);
    }
  });
});

describe('runtimes beyond Go: the captured incidents of tests/fixtures/runtimes', () => {
  // per runtime: the incident's culprit, and the runtime's own rows that must rank as runtime work
  const cases: Array<[string, string, string, string[]]> = [
    ['CPython (py-spy --native)', 'python/orders', 'log_order_debug (orders.py)', []],
    ['JVM (async-profiler)', 'java/orders', 'Orders.signResponse', ['CompileBroker::compiler_thread_loop', 'GangWorker::loop']],
    ['Node.js (@datadog/pprof)', 'node/orders', 'validateEveryField', ['Garbage Collection']],
    ['Ruby (rbspy)', 'ruby/records', 'parse_every_field', []],
    ['.NET (perf with CoreCLR\'s perf map)', 'dotnet/orders', 'Orders::SignResponse(uint8[])', ['TieredCompilationManager::StaticOptimizeMethodsCallback (libcoreclr.so)']],
  ];
  const read = (f: string) => pprofToTree(fixture(`runtimes/${f}.cpu.pb.gz`), 'cpu').tree;

  it.each(cases)('%s: the first change, either way, per request or share, is the culprit; the runtime\'s own rows rank after every row of code', (_rt, file, culprit, runtimeRows) => {
    const diff = diffTrees(read(`${file}-baseline`), read(`${file}-incident`));
    const a = attributeSelf(diff);
    for (const unit of ['per-request', 'share'] as const) {
      const rows = changesByUnit(a.tree, unit, { baseline: checkCount(1000), comparison: checkCount(1000) });
      expect([unit, rows[0].name]).toEqual([unit, culprit]);
      const lastCode = rows.map((r) => originOf(r.name) === undefined).lastIndexOf(true);
      expect(rows.slice(0, lastCode + 1).filter((r) => originOf(r.name) !== undefined).map((r) => r.name)).toEqual([]);
      for (const n of runtimeRows) {
        expect([n, originOf(n), rows.findIndex((x) => x.name === n) > lastCode]).toEqual([n, 'runtime', true]);
      }
    }
    // the negative cases: a runtime's own row changed more than the culprit did, so ranking by the
    // size of the change alone would put it first (V8's idle time fell as the CPU filled)
    if (file.startsWith('node')) {
      const rows = changesByUnit(diff, 'share');
      const idle = rows.find((r) => r.name === '(idle)')!;
      expect(-idle.shareDelta).toBeGreaterThan(rows[0].shareDelta);
      expect([rows[0].name, originOf('(idle)')]).toEqual([culprit, 'runtime']);
    }
    // without attribution, Ruby's C methods (rbspy cannot name them in Debian's stripped libruby)
    // keep their time: the plain table per request leads with them
    if (file.startsWith('ruby')) {
      const plain = changesByUnit(diff, 'per-request', { baseline: checkCount(1000), comparison: checkCount(1000) });
      expect([plain[0].name, originOf(plain[0].name)]).toEqual(['(unknown) [c function]', 'runtime']);
      expect(selfOf(a.tree, '(unknown) [c function]', true)).toBe(0);
      expect(a.via.get(culprit)?.from.has('(unknown) [c function]')).toBe(true);
    }
    // without attribution, CPython's time in its own C functions stays on them
    if (file.startsWith('python')) {
      const plain = changesByUnit(diff, 'per-request', { baseline: checkCount(1000), comparison: checkCount(1000) });
      expect(plain.find((r) => r.name === 'unicode_repr (libpython3.11.so.1.0)')!.perRequestDelta!).toBeGreaterThan(0);
      expect(selfOf(a.tree, 'unicode_repr (libpython3.11.so.1.0)', true)).toBe(0);
      expect(a.via.get(culprit)?.from.has('unicode_repr (libpython3.11.so.1.0)')).toBe(true);
    }
  });

  it('JVM: a runtime thread is charged whole to the frame that starts it; no frame beneath it keeps self', () => {
    const t = read('java/orders-incident');
    const a = attributeSelf(t);
    let beneath = 0;
    for (let i = 1; i < t.size; i++) {
      let starter = -1;
      for (let p = t.parent[i]; p > 0; p = t.parent[p]) {
        if (isRuntimeThread(t.names[t.nameId[p]])) {
          starter = p;
        }
      }
      if (starter >= 0 && t.self[i] > 0) {
        beneath++;
        expect(a.tree.self[i]).toBe(0);
      }
    }
    expect(beneath).toBeGreaterThan(10);
    expect(a.via.get('CompileBroker::compiler_thread_loop')!.from.size).toBeGreaterThan(10);
  });

  it('eBPF and native frame names: libraries, kernel, VM entries and runtime threads of each runtime', () => {
    const plumbing = [
      '0x7fe3a3371480 (libc.so.6)', 'unicode_repr (libpython3.11.so.1.0)', 'Py_DECREF (object.h)', '_PyEval_EvalFrameDefault', 'gc_collect_main', 'dict_repr',
      'rb_ary_push (libruby-3.1.so.3.1)', '[unknown] (libruby-3.1.so.3.1.2)', 'Regexp#match [c function]', 'String#upcase [c function]', '(unknown) [c function]',
      '(garbage collection)', '(marking)', '(sweeping)', 'rb_str_upcase', 'rb_wb_protected_newobj_of', 'rb_vm_exec', 'onig_search', 'onigenc_unicode_case_map', 'match_at', 'st_lookup',
      'coroutine_transfer', 'vm_exec_core', 'gc_sweep_step', 'gc_marks_rest', 'garbage_collect', 'newobj_slowpath', 'objspace_xmalloc0', 'v8::internal::Heap::CollectGarbage', '(program)', '(idle)', 'Non JS threads activity',
      'jlong_disjoint_arraycopy', '_new_array_nozero_Java', 'G1CollectedHeap::attempt_allocation_slow', 'InterpreterRuntime::resolve_invoke',
      'WKS::gc_heap::garbage_collect', 'SVR::gc_heap::mark_phase', 'ThePreStub', 'JIT_NewS_MP_FastPortable (libcoreclr.so)', 'Compiler::compCompile (libclrjit.so)', '[unknown] (System.Private.CoreLib.dll)', 'CILJit::compileMethod', '|lm:[native] GC |ns: |ct: |cg: |fn:Garbage Collector |fg: |sg:(?)',
      'entry_SYSCALL_64_after_hwframe', 'do_syscall_64', '__x64_sys_write', 'tcp_sendmsg_[k]', 'asm_exc_page_fault',
    ];
    for (const n of plumbing) {
      expect([n, isPlumbing(n)]).toEqual([n, true]);
    }
    const code = ['log_order_debug (orders.py)', 'scanner_call (_json.c)', 'JSONDecoder.decode (json/decoder.py)', 'Orders.signResponse', 'validateEveryField', 'deflate (libz.so.1)', 'MyApp.Handlers.OrderHandler.Handle', 'Orders::SignResponse(uint8[])', 'System.Text.StringBuilder::Append(string)', 'tcp_sendmsg', 'parse_every_field', 'block in parse_every_field', 'Fluent::Plugin::Output#emit_events', 'rbac_check', 'gcd', 'stats_lookup', 'first_match_at'];
    for (const n of code) {
      expect([n, isPlumbing(n)]).toEqual([n, false]);
    }
    expect(['CompileBroker::compiler_thread_loop', 'GangWorker::loop', 'VMThread::run', 'WKS::gc_heap::gc_thread_stub', 'WKS::gc_heap::bgc_thread_function (libcoreclr.so)', 'TieredCompilationManager::OptimizeMethodsCallback (libcoreclr.so)'].every(isRuntimeThread)).toBe(true);
    expect(['Orders::SignResponse(uint8[])', 'ThreadpoolMgr::WorkerThreadStart (libcoreclr.so)', 'main (orders.py)'].some(isRuntimeThread)).toBe(false);
    expect(isVmEntry('entry_SYSCALL_64') && isVmEntry('do_syscall_64_[k]') && isVmEntry('do_syscall_64 ([kernel.kallsyms])') && !isVmEntry('Orders.main')).toBe(true);
  });

  it('Ruby under an eBPF profiler: libruby\'s functions and its GC beneath a Ruby method are charged to it; beneath none they are Ruby\'s own', () => {
    // the shape of an eBPF profiler's Ruby stack: the interpreter's entry, the Ruby methods it
    // runs, and the C functions a method calls, with the GC an allocation triggered
    const t = fromAscii(`
total 100
├─ ruby_run_node 90
│  └─ rb_vm_exec 90
│     └─ <main> 90
│        └─ parse_every_field 90
│           ├─ rb_reg_search 40
│           │  └─ onig_search 40
│           │     └─ match_at 30
│           └─ rb_str_upcase 50
│              └─ rb_wb_protected_newobj_of 20
│                 └─ gc_sweep_step 15
└─ ruby_cleanup 10
   └─ rb_objspace_call_finalizer 10
`);
    const a = attributeSelf(t);
    expect(selfOf(a.tree, 'parse_every_field')).toBe(90);
    expect(a.via.get('parse_every_field')!.from.get('match_at')![0]).toBe(30);
    expect(selfOf(a.tree, 'gc_sweep_step')).toBe(0);
    // the VM's teardown has no Ruby method above it: Ruby's own work, ranked after the code
    expect(selfOf(a.tree, 'rb_objspace_call_finalizer')).toBe(10);
    expect([...serviceCodeNames(a.tree)]).toEqual(['parse_every_field']);
  });

  it('a kernel entry charges everything beneath it, whatever its names, to the code that made the call', () => {
    const t = fromAscii(`
total 100
└─ main 100
   └─ send_reply 100
      └─ __libc_send 90
         └─ entry_SYSCALL_64_after_hwframe 90
            └─ do_syscall_64 90
               └─ tcp_sendmsg 80
                  └─ tcp_push 60
`);
    const a = attributeSelf(t);
    expect(selfOf(a.tree, 'send_reply')).toBe(100);
    expect(selfOf(a.tree, 'tcp_push')).toBe(0);
    expect(a.via.get('send_reply')!.from.get('tcp_push')![0]).toBe(60);
  });
});
