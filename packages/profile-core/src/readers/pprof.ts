import { ProfileError } from './frame';
import { decodePprof, PprofLocation, PprofProfile } from './pprof-decode';
import { Interner, ROOT_NAME, Tree, TreeBuilder } from '../tree/tree';

export interface PprofTree {
  tree: Tree;
  /** the sample types in the profile, in order (e.g. samples, cpu; alloc_objects, alloc_space, ...) */
  sampleTypes: string[];
  sampleType: string;
  /** Grafana's unit for the chosen type (ns, bytes, short, ...) */
  unit: string;
  /** Pyroscope-style profile type id, e.g. process_cpu:cpu:nanoseconds:cpu:nanoseconds */
  profileTypeId: string;
  /**
   * Set for a diff profile written by `go tool pprof -proto -diff_base=BASE NEW`: its samples
   * labelled pprof::base (stored negated) rebuilt as the baseline, `tree` holds the others.
   */
  baseline?: Tree;
}

/** Grafana's unit name for a pprof unit, as the Pyroscope datasource maps it. */
export function grafanaUnit(pprofUnit: string): string {
  if (pprofUnit === 'nanoseconds') {
    return 'ns';
  }
  if (pprofUnit === 'count' || pprofUnit === '') {
    return 'short';
  }
  return pprofUnit;
}


/** CPU time, as each runtime's profiler names it: Go, JFR (via Pyroscope), pprof-rs, Node ("cpu"), dd-trace-py ("cpu-time"). */
const CPU_TYPE = /^(cpu|cpu[-_]time)$/i;

/**
 * Picks the sample type: by name; else what Pyroscope opens a service on: the profile's
 * default_sample_type, else its CPU time, else the last type with samples (pprof's default is
 * the last type, but real profiles end in empty ones: dd-trace-py's last of 19 is gpu-flops).
 */
function pickType(p: PprofProfile, sampleType?: string): number {
  const types = p.sampleTypes.map((t) => t.type);
  const withSamples = () => {
    const have = types.filter((_, i) => p.absTotals[i] > 0);
    return have.length ? have.join(', ') : 'none';
  };
  if (types.length === 0) {
    throw new ProfileError('pprof', 'this profile declares no sample types and has no samples.');
  }
  let index: number;
  if (sampleType) {
    index = types.indexOf(sampleType);
    if (index < 0) {
      throw new ProfileError(
        'pprof',
        `Unknown sample type "${sampleType}": this profile has ${types.map((t) => `"${t}"`).join(', ')}.`
      );
    }
  } else {
    const has = (i: number) => i >= 0 && p.absTotals[i] > 0;
    index = p.defaultSampleType ? types.indexOf(p.defaultSampleType) : -1;
    if (!has(index)) {
      index = types.findIndex((t, i) => CPU_TYPE.test(t) && has(i));
    }
    if (!has(index)) {
      index = types.map((_, i) => i).filter(has).pop() ?? types.length - 1;
    }
  }
  if (!(p.absTotals[index] > 0)) {
    throw new ProfileError(
      'pprof',
      `no samples of type ${types[index]} in this profile (types with samples: ${withSamples()}).`
    );
  }
  return index;
}

const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * A frame's name as `go tool pprof -top` names it at its default (functions) granularity: the
 * function name; a frame without one (unsymbolized) as its binary, "[libc.so.6]", or "<unknown>"
 * when there is no mapping either.
 */
function frameNamer(p: PprofProfile) {
  return (loc: PprofLocation, functionId: number): string => {
    const name = functionId ? p.functions.get(functionId)?.name : '';
    if (name) {
      return name;
    }
    const file = p.mappings.get(loc.mappingId)?.file ?? '';
    return file ? `[${base(file)}]` : '<unknown>';
  };
}

/** pprof's simplifyFunc: drop the argument list of a C++ name, keeping reserved names with "(". */
function simplifyFunc(f: string): string {
  const name = f.startsWith('.') ? f.slice(1) : f;
  const rx = /\(anonymous namespace\)|operator\(\)|\(/g;
  for (let m = rx.exec(name); m; m = rx.exec(name)) {
    if (m[0] === '(') {
      return name.slice(0, m.index);
    }
  }
  return name;
}

/** Per location, what drop_frames/keep_frames leaves of it (pprof's Prune; RE2 and JS agree on these simple patterns). */
function pruneRules(p: PprofProfile): Map<number, { whole: boolean; keepLines: number }> | undefined {
  if (!p.dropFrames) {
    return undefined;
  }
  let drop: RegExp;
  let keep: RegExp | undefined;
  try {
    drop = new RegExp(`^(?:${p.dropFrames})$`);
    keep = p.keepFrames ? new RegExp(`^(?:${p.keepFrames})$`) : undefined;
  } catch {
    return undefined; // a pattern JS cannot compile: frames are kept (as Pyroscope keeps them)
  }
  const rules = new Map<number, { whole: boolean; keepLines: number }>();
  for (const [id, loc] of p.locations) {
    const lines = loc.functionIds;
    let i = lines.length - 1;
    for (; i >= 0; i--) {
      const name = p.functions.get(lines[i])?.name;
      if (name) {
        const f = simplifyFunc(name);
        if (drop.test(f) && !(keep && keep.test(f))) {
          break;
        }
      }
    }
    if (i >= 0) {
      // lines[0..i] are dropped: the matching frame and what it inlines
      rules.set(id, { whole: i === lines.length - 1, keepLines: lines.length - 1 - i });
    }
  }
  return rules;
}

/**
 * pprof -> tree, as Pyroscope builds it: one root ("total") holding every sample, a frame per
 * function on each stack, root first. pprof lists a sample's locations leaf first and a
 * location's lines innermost first (inlined functions come before the function they were
 * inlined into), so both lists are reversed. Frames without a function are named as pprof
 * names them (see frameNamer); the profile's drop_frames are applied as pprof applies them.
 * Samples of value 0 are dropped. Values are signed int64: a profile written by
 * `go tool pprof -proto -diff_base` comes back as two trees (baseline, comparison); other
 * negative values are refused (see below).
 *
 * `sampleType` picks the value: by name (cpu, samples, alloc_space, inuse_objects, ...);
 * default: the profile's default_sample_type, else the last type (pprof's convention).
 * Errors are ProfileErrors with one-line messages, in pprof's words where pprof has them.
 */
export function pprofToTree(bytes: Uint8Array, sampleType?: string): PprofTree {
  return profileToTree(decodePprof(bytes), sampleType);
}

export function profileToTree(profile: PprofProfile, sampleType?: string): PprofTree {
  const index = pickType(profile, sampleType);
  const types = profile.sampleTypes.map((t) => t.type);
  if (profile.hasNegative && !profile.hasDiffBase) {
    throw new ProfileError(
      'pprof',
      'this profile has negative sample values but no sample labelled pprof::base, so it is no diff hotpath can split: ' +
        'diff two profiles with --baseline, or write the diff with `go tool pprof -proto -diff_base=BASE NEW`.'
    );
  }
  const pprofUnit = profile.sampleTypes[index].unit;
  const name = frameNamer(profile);
  const interner = new Interner([ROOT_NAME]);
  // each location -> its frames root-most first (outer function first, inlined callees after)
  const prune = pruneRules(profile);
  const frames = new Map<number, Int32Array>();
  for (const [id, loc] of profile.locations) {
    const ids: number[] = [];
    const lines = loc.functionIds;
    // a location matched below its outermost line loses the matched lines everywhere (pprof
    // trims loc.Line); a location matched at its outermost line is cut from samples instead
    const rule = prune?.get(id);
    const keep = rule && !rule.whole ? rule.keepLines : lines.length;
    if (lines.length === 0) {
      ids.push(interner.id(name(loc, 0)));
    }
    for (let k = lines.length - 1; k >= lines.length - keep; k--) {
      ids.push(interner.id(name(loc, lines[k])));
    }
    frames.set(id, Int32Array.from(ids));
  }
  const sides = [new TreeBuilder(interner, ROOT_NAME), new TreeBuilder(interner, ROOT_NAME)];
  const stack: number[] = [];
  profile.forEachSample((s) => {
    const value = s.values[index];
    if (!value) {
      return;
    }
    const locs = s.locationIds;
    // pprof's Prune: from the root down, past the first kept ("user") frame, cut at the first dropped one
    let leaf = 0;
    if (prune) {
      let foundUser = false;
      for (let k = locs.length - 1; k >= 0; k--) {
        const rule = prune.get(locs[k]);
        if (!rule) {
          foundUser = true;
          continue;
        }
        if (!foundUser) {
          continue;
        }
        leaf = rule.whole ? k + 1 : k;
        break;
      }
    }
    stack.length = 0;
    for (let k = locs.length - 1; k >= leaf; k--) {
      const f = frames.get(locs[k])!;
      for (let j = 0; j < f.length; j++) {
        stack.push(f[j]);
      }
    }
    // a base sample of a -diff_base profile is stored negated; it is the baseline side
    if (s.diffBase) {
      sides[0].addStack(stack, -value);
    } else {
      sides[1].addStack(stack, value);
    }
  });
  const unit = grafanaUnit(pprofUnit);
  const period = profile.periodType ? `${profile.periodType.type}:${profile.periodType.unit}` : ':';
  const kind = types.includes('cpu') || types.includes('samples') ? 'process_cpu' : types.some((t) => t.startsWith('alloc_') || t.startsWith('inuse_')) ? 'memory' : 'profile';
  const result: PprofTree = {
    tree: sides[1].build(unit, { diff: false }),
    sampleTypes: types,
    sampleType: types[index],
    unit,
    profileTypeId: `${kind}:${types[index]}:${pprofUnit}:${period}`,
  };
  if (profile.hasDiffBase) {
    result.baseline = sides[0].build(unit, { diff: false });
  }
  return result;
}
