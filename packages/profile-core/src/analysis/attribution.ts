/**
 * Attribution to code: self time spent in a language runtime, in libc, or in a standard
 * library's allocator or system-call path is charged to the nearest caller outside them.
 * "runtime.memclrNoHeapPointers +16.7%" says where the CPU was burnt; the answer to "what do I
 * change" is the function that asked for it: "compress/flate.NewWriter (via
 * runtime.memclrNoHeapPointers)". Pure: no React, no DOM.
 *
 * Only `self` (and `selfRight`) move; the tree keeps its shape and its totals, so the result is
 * for the tables (self by function), not for drawing.
 */
import { isDiff, Tree } from '../tree/tree';

/**
 * Frames that are plumbing, per runtime the pprof corpus holds. Each pattern names what it
 * matches; a frame matching none is code its owner can change.
 */
export const PLUMBING: Array<{ runtime: string; pattern: RegExp }> = [
  // Go: the runtime (scheduler, GC, allocator, memclr/memmove), its internal packages, and the
  // system-call wrappers of the standard library and x/sys.
  { runtime: 'Go', pattern: /^(runtime|internal\/runtime\/[\w/]+|runtime\/internal\/[\w/]+|internal\/abi|internal\/bytealg|internal\/syscall\/[\w/]+|internal\/poll|syscall|golang\.org\/x\/sys\/unix)\.|^gogo$|^goexit|^gcWriteBarrier\w*$/ },
  // libc, the dynamic loader, the kernel and the vDSO (C, C++, Rust, and every runtime's native
  // frames): memory, allocation, locking and system calls.
  {
    runtime: 'libc',
    pattern:
      /^_{0,2}(libc_\w+|GI_\w+|memcpy|memmove|memset|memcmp|memchr|strlen|malloc|calloc|realloc|free|cfree|_int_malloc|_int_free|_int_realloc|malloc_consolidate|epoll_wait|epoll_pwait|syscall|pthread_\w+|futex\w*|lll_\w+|clock_gettime|vdso\w*|nanosleep|sched_yield|mmap|munmap|madvise|brk|sbrk|poll|select|read|write|readv|writev|sendmsg|recvmsg|sendto|recvfrom|tls_get_addr)(_[a-z0-9_]+)?$|^\[(kernel\.kallsyms|vdso|unknown)\]$|\.so(\.[\d.]+)?$|^\[lib[\w.+-]*\.so[\d.]*\]$|^(entry_SYSCALL|do_syscall|__x64_sys_)/,
  },
  // Native frames as JFR names them: "<library>.<symbol>" for the system's libraries (libc,
  // libpthread, the JVM, macOS's libsystem_*), ".<symbol>" for the kernel and JVM stubs.
  {
    runtime: 'native (JFR)',
    pattern: /^(lib(c|pthread|dl|m|rt|jvm|asyncProfiler|system_\w+|stdc\+\+)[\w.+-]*?\.(so|dylib)[^.]*\.|\.)/,
  },
  // C++: the allocator (tcmalloc, jemalloc, operator new/delete) and the standard library's internals.
  { runtime: 'C++', pattern: /^(tcmalloc::|je_|operator (new|delete)|std::__|__gnu_cxx::|__cxa_|_Unwind_)/ },
  // Rust: the allocator shims and core/alloc (Vec growth, memcpy through ptr::copy), std's OS layer.
  { runtime: 'Rust', pattern: /^<?(core|alloc)::|^<[^<>]* as (core|alloc)::|^__rust_|^__rdl_|^__rg_|^std::(sys|sys_common|alloc)::/ },
  // The JVM: its native code (GC, allocation, interpreter stubs, safepoints) and Unsafe.
  { runtime: 'Java', pattern: /^(JVM_|Unsafe_|jdk[./]internal[./]misc[./]Unsafe[./]|sun[./]misc[./]Unsafe[./]|os::|Interpreter|StubRoutines|OptoRuntime|SharedRuntime|SafepointSynchronize|CollectedHeap|MemAllocator|ObjAllocator|G1\w*::|ZGC|TypeArrayKlass|InstanceKlass::allocate|JavaThread::|Thread::call_run|thread_native_entry|start_thread|clone3?$)/ },
  // HotSpot's stubs as async-profiler and eBPF profilers name them: array copies, allocation and
  // inline-cache stubs, the GC's spin.
  { runtime: 'Java', pattern: /^(\w+_(disjoint|conjoint)_arraycopy\w*|_\w+_Java|\w+_stub|I2C\/C2I adapters(\(0x[0-9a-f]+\))?|SpinPause|AllocateHeap|DeoptimizationBlob|UncommonTrapBlob|SafepointBlob|MHN_\w+|jni_\w+|jio_\w+)$/ },
  // .NET (CoreCLR) as an eBPF profiler symbolizes libcoreclr: the GC (workstation and server),
  // the type loader, the JIT and its stubs; and the GC frame of Pyroscope's .NET profiler. Named
  // "function (libcoreclr.so)" by perf, they are plumbing by their file (NATIVE_FILE).
  {
    runtime: '.NET',
    pattern: /^((WKS|SVR)::|(GCHeap|GCToEEInterface|MethodDesc|MethodTable|CEEInfo|CILJit|ClassLoader|FinalizerThread|TieredCompilation\w*|ThreadNative|ThreadStore)::|(ThePreStub|PreStubWorker|JIT_\w+|UnsafeJitFunction|jitNativeCode|CallDescrWorkerInternal|coreclr_\w+)$)|\|fn:Garbage Collector\b/,
  },
  // Node.js: V8 and libuv (GC, builtins, the event loop's poll).
  { runtime: 'Node.js', pattern: /^(\(garbage collector\)|Garbage Collection$|v8::|node::|uv_|uv__|Builtins?_|Builtin: )/ },
  // V8's CPU profile: the time outside JavaScript as its own root frames ((program), (idle)), and
  // @datadog/pprof's frames for the process's other threads (the GC's helpers, the compiler, libuv).
  { runtime: 'Node.js', pattern: /^(\((program|idle|root)\)|Node\.js|Non JS threads activity)$/ },
  // Python: the interpreter's own C entry points.
  { runtime: 'Python', pattern: /^(_?Py[A-Z_]\w*|_PyEval_\w+|<built-in method \w+>)$/ },
  // CPython's C internals as a native or eBPF profiler names them without their library: the eval
  // loop, the object protocol's slots and the cyclic GC, which runs inside the frame that allocated.
  {
    runtime: 'Python',
    pattern: /^(gc_collect\w*|collect_with_callback|subtract_refs|move_unreachable|visit_\w+|(dict|list|tuple|unicode|long|float|set|frame|func|method|type|object|bytes|subtype|code|cfunction|vectorcall)_(repr|dealloc|traverse|vectorcall\w*|richcompare|hash|new|clear|subscript|iternext|call)|_Py_\w+)$/,
  },
  // Ruby: rbspy (Pyroscope's Ruby SDK) names a method written in C "String#upcase [c function]"
  // ("(unknown) [c function]" when it cannot read the name): the VM's work for the Ruby method that
  // called it. The GC's frames as stackprof names them.
  { runtime: 'Ruby', pattern: /\[c function\]$|^\((garbage collection|marking|sweeping)\)$/ },
  // libruby's C functions as an eBPF profiler symbolizes them: from the exported symbols of a
  // distribution's stripped libruby (rb_*, ruby_*, Onigmo's onig*, the st hash table, fibers'
  // coroutine_transfer), and with debug symbols the interpreter loop, the GC and the object space.
  {
    runtime: 'Ruby',
    pattern: /^(rb_|vm_|ruby_)|^((onig|onigenc|gc|objspace|newobj|heap_page)_\w+|garbage_collect\w*|match_at|coroutine_transfer|st_(lookup|insert2?|add_direct|delete\w*|foreach\w*|update|init_\w+|free_table|numhash|hash\w*))$/,
  },
];

/**
 * Native frames named "function (file)" (py-spy with --native; perf-style tools), where the file
 * is a runtime's or the C library's own: libc and the loader, libpython, libruby, libjvm,
 * libcoreclr, or the interpreter's executable when it is linked statically.
 */
export const NATIVE_FILE =
  /^(lib(c|m|dl|rt|pthread|gcc_s|stdc\+\+|python[\d.]*m?|ruby[\d.]*|node|jvm|coreclr|clrjit)([-.][\w.]*)?\.so[\d.]*|ld-linux[\w.-]*\.so[\d.]*|(python|ruby|node|java|dotnet)[\d.]*|\[(kernel\.kallsyms|vdso)\])$/;
const FILE_SUFFIX = / \(([^()]*)\)$/;

/** True when `name` is runtime, libc or standard-library plumbing (see PLUMBING and NATIVE_FILE). */
export function isPlumbing(name: string): boolean {
  if (PLUMBING.some((p) => p.pattern.test(name)) || isRuntimeThread(name) || isVmEntry(name)) {
    return true;
  }
  const m = FILE_SUFFIX.exec(name);
  return m !== null && (NATIVE_FILE.test(m[1]) || PLUMBING.some((p) => p.pattern.test(name.slice(0, m.index))));
}

/** The name without a native profiler's " (file)" ("WKS::gc_heap::bgc_thread_function (libcoreclr.so)"). */
function bareName(name: string): string {
  const m = FILE_SUFFIX.exec(name);
  return m ? name.slice(0, m.index) : name;
}

/**
 * Frames that start a runtime's own thread: the JVM's JIT compilers, GC workers and VM thread
 * (safepoints), .NET's GC, finalizer and tiering threads (.NET Core 3's tiering runs as a
 * thread-pool work item, OptimizeMethodsCallback). Everything such a thread runs is that runtime's
 * work with no calling code to charge: it is charged whole to the frame that starts it, so the
 * answer says "the JIT compiler" rather than one of its thousand C++ functions.
 */
export const RUNTIME_THREAD =
  /^(CompileBroker::compiler_thread_loop|GangWorker::loop|WorkerThread::run|ConcurrentGCThread::run|VMThread::run|WatcherThread::run|ServiceThread::service_thread_entry|MonitorDeflationThread::\w+|\w*ConcurrentRefineThread::\w+|G1ServiceThread::\w+|\w*(Mark|Control)Thread::run_service|(WKS|SVR)::gc_heap::(gc|bgc)_thread_\w+|TieredCompilation::BackgroundWorker\w*|TieredCompilationManager::\w*OptimizeMethods\w*|FinalizerThread::FinalizerThreadStart)$/;

/** True when `name` starts a runtime's own thread (see RUNTIME_THREAD), with its file or without. */
export function isRuntimeThread(name: string): boolean {
  return RUNTIME_THREAD.test(name) || RUNTIME_THREAD.test(bareName(name));
}

/**
 * Frames where code enters a runtime or the kernel: the JVM's runtime calls (class resolution,
 * slow-path allocation and the collection it triggers, deoptimization, monitors), a system call's
 * or a page fault's entry into the kernel. Everything beneath is the runtime's or the kernel's
 * work for the code that called it, however its functions are named ("tcp_sendmsg",
 * "G1RemSet::scan_collection_set_regions"), so it is charged to that code. A kernel frame may
 * carry perf's "_[k]" mark.
 */
export const VM_ENTRY =
  /^((InterpreterRuntime|SharedRuntime|OptoRuntime|Runtime1|JavaCalls|InstanceKlass|InstanceKlass|Deoptimization|LinkResolver|MemAllocator|CollectedHeap|G1CollectedHeap|ObjectSynchronizer|ObjectMonitor|SafepointMechanism|SafepointSynchronize|JvmtiExport)::\w+|JVM_\w+|Unsafe_\w+|MHN_\w+|jni_\w+|entry_SYSCALL_64\w*|do_syscall_64|__(x64|arm64|ia32)_sys_\w+|el0t_64_sync\w*|el0_svc\w*|asm_(exc|sysvec|common_interrupt)_\w+|exc_page_fault|ret_from_fork\w*)(_\[k\])?$|(_| )\[k\]$/;

/** True when `name` is where code enters a runtime or the kernel (see VM_ENTRY), with its file or without. */
export function isVmEntry(name: string): boolean {
  return VM_ENTRY.test(name) || VM_ENTRY.test(bareName(name));
}

/**
 * Frames of the profiler itself: taking, merging and encoding profiles inside the profiled
 * process (Go's runtime/pprof and net/http/pprof with the delta merge of internal/profile, the
 * Pyroscope SDKs' delta profilers, async-profiler). Its cost is observability overhead, not code
 * the service's owner changes, and it moves with the profile's size rather than the requests.
 */
export const PROFILER =
  /^(runtime\/pprof|internal\/profile|net\/http\/pprof|github\.com\/google\/pprof\/profile|github\.com\/grafana\/pyroscope-go(\/[\w.-]+)*|github\.com\/pyroscope-io\/[\w/.-]+|one[./]profiler[./]\w+)[./]/;

/** True when `name` is a frame of the profiler itself (see PROFILER). */
export function isProfiler(name: string): boolean {
  return PROFILER.test(name);
}

/**
 * Whose work a frame is when it is not the service's code: "runtime" for a runtime's, libc's or
 * the kernel's (isPlumbing), "profiler" for the profiler's own (isProfiler); undefined for code.
 * The bridge labels its rows with it (origin=), and the changes rank such rows after the code.
 */
export type Origin = 'runtime' | 'profiler';

/** The origin of a frame's name (see Origin); undefined when it is the service's code. */
export function originOf(name: string): Origin | undefined {
  return isPlumbing(name) ? 'runtime' : isProfiler(name) ? 'profiler' : undefined;
}

/** The self values moved onto one function, by the plumbing frame they came from. */
export interface Via {
  /** plumbing frame -> [baseline, comparison] self moved from it (comparison 0 on a plain tree) */
  from: Map<string, [number, number]>;
}

export interface Attribution {
  /** the tree with plumbing self moved to the nearest caller outside plumbing */
  tree: Tree;
  /** per function that received self: where it came from */
  via: Map<string, Via>;
}

/**
 * Per node of `tree`, the node its self is charged to: itself for code; for plumbing, its nearest
 * ancestor that is not plumbing; beneath a runtime thread's starting frame, that frame; beneath an
 * entry into a runtime or the kernel with no caller above it (a stack the profiler could not walk
 * past the runtime), the entry frame itself, which is named as the runtime's; -1 for plumbing with
 * no such caller (a GC worker, the scheduler, a thread's entry): that work is itself the answer.
 * Nodes are in preorder (a parent before its children), so one pass sees each parent first.
 */
export function ownersOf(tree: Tree, plumbing: (name: string) => boolean = isPlumbing, runtimeThread: (name: string) => boolean = isRuntimeThread, entry: (name: string) => boolean = isVmEntry): Int32Array {
  const owner = new Int32Array(tree.size);
  // per node: the runtime thread's starting frame above it (-1: none), and the entry into a
  // runtime or the kernel it is beneath (-1: none)
  const thread = new Int32Array(tree.size).fill(-1);
  const entered = new Int32Array(tree.size).fill(-1);
  const isP = byName(tree, plumbing);
  const isThread = byName(tree, runtimeThread);
  const isEntry = byName(tree, entry);
  for (let i = 0; i < tree.size; i++) {
    const p = tree.parent[i];
    if (i > 0) {
      thread[i] = p > 0 && thread[p] >= 0 ? thread[p] : isThread(i) ? i : -1;
      entered[i] = p > 0 && entered[p] >= 0 ? entered[p] : isEntry(i) ? i : -1;
    }
    // the root (index 0, "total") is no function: owner -1 means "no caller outside plumbing"
    const up = p > 0 ? owner[p] : -1;
    owner[i] = i === 0 ? -1 : thread[i] >= 0 ? thread[i] : !isP(i) && entered[i] < 0 ? i : up >= 0 ? up : entered[i] >= 0 ? entered[i] : -1;
  }
  return owner;
}

/** `f` of each node's name, computed once per name. */
function byName(tree: Tree, f: (name: string) => boolean): (i: number) => boolean {
  const cache = new Map<number, boolean>();
  return (i: number) => {
    const id = tree.nameId[i];
    let v = cache.get(id);
    if (v === undefined) {
      v = f(tree.names[id]);
      cache.set(id, v);
    }
    return v;
  };
}

/**
 * Moves each plumbing frame's self to the node ownersOf charges it to. A plumbing frame with no
 * caller to charge (a GC worker, the scheduler, a thread's entry) keeps its self.
 */
export function attributeSelf(tree: Tree, plumbing: (name: string) => boolean = isPlumbing, runtimeThread: (name: string) => boolean = isRuntimeThread, entry: (name: string) => boolean = isVmEntry): Attribution {
  const diff = isDiff(tree);
  const self = Float64Array.from(tree.self);
  const selfRight = diff ? Float64Array.from(tree.selfRight) : undefined;
  const owner = ownersOf(tree, plumbing, runtimeThread, entry);
  const via = new Map<string, Via>();
  for (let i = 1; i < tree.size; i++) {
    const o = owner[i];
    if (o < 0 || o === i) {
      continue;
    }
    const b = tree.self[i];
    const c = diff ? tree.selfRight![i] : 0;
    if (b === 0 && c === 0) {
      continue;
    }
    self[o] += b;
    self[i] = 0;
    if (selfRight) {
      selfRight[o] += c;
      selfRight[i] = 0;
    }
    const to = tree.names[tree.nameId[o]];
    const from = tree.names[tree.nameId[i]];
    const v = via.get(to) ?? { from: new Map() };
    const prev = v.from.get(from) ?? [0, 0];
    v.from.set(from, [prev[0] + b, prev[1] + c]);
    via.set(to, v);
  }
  return { tree: { ...tree, self, selfRight }, via };
}

/**
 * The names of `tree` whose self is the service's code's work: a frame of code, or a runtime
 * frame charged to code (runtime.memclrNoHeapPointers beneath compress/flate.NewWriter: where that
 * code's CPU was burnt). The others' self is a runtime's own work with no code to charge (V8's
 * (idle) and (program), a GC or JIT thread) or the profiler's: not what the service's owner changes.
 */
export function serviceCodeNames(tree: Tree): Set<string> {
  const owner = ownersOf(tree);
  const isCode = byName(tree, (n) => originOf(n) === undefined);
  const out = new Set<string>();
  for (let i = 1; i < tree.size; i++) {
    const o = owner[i];
    if ((tree.self[i] !== 0 || (tree.selfRight?.[i] ?? 0) !== 0) && o >= 0 && isCode(o)) {
      out.add(tree.names[tree.nameId[i]]);
    }
  }
  return out;
}

/**
 * The plumbing frame that moved most into `name`: by the change (comparison minus baseline)
 * on a diff, by amount on a plain tree; undefined when nothing moved, or when what moved is
 * small beside the function's own self (`ownSelf`, same side): then the function is its own answer.
 */
export function mainVia(a: Attribution, name: string, ownChange: number): string | undefined {
  const v = a.via.get(name);
  if (!v) {
    return undefined;
  }
  let best: string | undefined;
  let size = 0;
  for (const [from, [b, c]] of v.from) {
    const s = a.tree.selfRight ? c - b : b;
    if (Math.abs(s) > Math.abs(size)) {
      best = from;
      size = s;
    }
  }
  return best !== undefined && Math.abs(size) >= 0.5 * Math.abs(ownChange) ? best : undefined;
}

/**
 * The heaviest stack of a function up to its nearest caller outside plumbing, innermost first:
 * ["syscall.Syscall6", "golang.org/x/sys/unix.EpollWait", "main.(*EventLoop).Run"]. For the busy
 * loop's answer: which call keeps the CPU busy. Uses the comparison side of a diff.
 */
export function callPathOf(tree: Tree, name: string, plumbing: (name: string) => boolean = isPlumbing): string[] {
  const values = isDiff(tree) ? tree.selfRight : tree.self;
  let best = -1;
  for (let i = 1; i < tree.size; i++) {
    if (tree.names[tree.nameId[i]] === name && (best < 0 || values[i] > values[best])) {
      best = i;
    }
  }
  const path: string[] = [];
  for (let i = best; i > 0; i = tree.parent[i]) {
    const n = tree.names[tree.nameId[i]];
    path.push(n);
    if (!plumbing(n)) {
      break;
    }
  }
  return path;
}
