import { gunzipSync } from 'fflate';
import { Profile } from 'pprof-format';

import { ProfileError } from './frame';
import { Interner, ROOT_NAME, Tree, TreeBuilder } from './tree';

export interface PprofTree {
  tree: Tree;
  /** the sample types in the profile, in order (e.g. samples, cpu; alloc_objects, alloc_space, ...) */
  sampleTypes: string[];
  sampleType: string;
  /** Grafana's unit for the chosen type (ns, bytes, short, ...) */
  unit: string;
  /** Pyroscope-style profile type id, e.g. process_cpu:cpu:nanoseconds:cpu:nanoseconds */
  profileTypeId: string;
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

const num = (v: number | bigint) => (typeof v === 'bigint' ? Number(v) : v);

/** Decodes pprof bytes, gzip-compressed (as runtime/pprof writes them) or not. */
export function decodePprofBytes(bytes: Uint8Array): Profile {
  let raw = bytes;
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      raw = gunzipSync(bytes);
    } catch (e) {
      throw new ProfileError('pprof', `Not a valid gzip-compressed pprof profile: ${(e as Error).message}.`);
    }
  }
  if (raw.length === 0) {
    throw new ProfileError('pprof', 'The pprof file is empty.');
  }
  let profile: Profile;
  try {
    profile = Profile.decode(raw);
  } catch (e) {
    throw new ProfileError('pprof', `Not a valid pprof profile (protobuf decoding failed: ${(e as Error).message}).`);
  }
  if (profile.sampleType.length === 0) {
    throw new ProfileError('pprof', 'Not a valid pprof profile: it declares no sample types.');
  }
  return profile;
}

/**
 * pprof -> tree, as Pyroscope builds it: one root ("total") holding every sample, a frame per
 * function on each stack, root first. pprof lists a sample's locations leaf first and a
 * location's lines innermost first (inlined functions come before the function they were
 * inlined into), so both lists are reversed. A location without symbols becomes its address.
 * Samples of value 0 are dropped.
 *
 * `sampleType` picks the value: by name (cpu, samples, alloc_space, inuse_objects, ...);
 * default: the profile's default_sample_type, else the last type (pprof's convention).
 */
export function pprofToTree(bytes: Uint8Array, sampleType?: string): PprofTree {
  const profile = decodePprofBytes(bytes);
  const strings = profile.stringTable.strings;
  const str = (i: number | bigint) => strings[num(i)] ?? '';
  const types = profile.sampleType.map((t) => str(t.type));
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
    const def = num(profile.defaultSampleType);
    index = def ? types.indexOf(str(def)) : -1;
    if (index < 0) {
      index = types.length - 1;
    }
  }
  const pprofUnit = str(profile.sampleType[index].unit);
  const functions = new Map<number, string>();
  for (const f of profile.function) {
    functions.set(num(f.id), str(f.name) || str(f.systemName));
  }
  const interner = new Interner([ROOT_NAME]);
  // each location -> its frames root-most first (outer function first, inlined callees after)
  const locations = new Map<number, Int32Array>();
  for (const loc of profile.location) {
    const frames: number[] = [];
    if (loc.line.length === 0) {
      frames.push(interner.id(`0x${num(loc.address).toString(16)}`));
    } else {
      for (let k = loc.line.length - 1; k >= 0; k--) {
        const name = functions.get(num(loc.line[k].functionId)) || `0x${num(loc.address).toString(16)}`;
        frames.push(interner.id(name));
      }
    }
    locations.set(num(loc.id), Int32Array.from(frames));
  }
  const builder = new TreeBuilder(interner, ROOT_NAME);
  const stack: number[] = [];
  for (const s of profile.sample) {
    const value = num(s.value[index] ?? 0);
    if (!value) {
      continue;
    }
    stack.length = 0;
    for (let k = s.locationId.length - 1; k >= 0; k--) {
      const frames = locations.get(num(s.locationId[k]));
      if (!frames) {
        throw new ProfileError('pprof', `Not a valid pprof profile: a sample refers to location ${s.locationId[k]}, which is not defined.`);
      }
      for (let f = 0; f < frames.length; f++) {
        stack.push(frames[f]);
      }
    }
    builder.addStack(stack, value);
  }
  const period = profile.periodType ? `${str(profile.periodType.type)}:${str(profile.periodType.unit)}` : ':';
  const name = types.includes('cpu') || types.includes('samples') ? 'process_cpu' : types.some((t) => t.startsWith('alloc_') || t.startsWith('inuse_')) ? 'memory' : 'profile';
  return {
    tree: builder.build(grafanaUnit(pprofUnit), { diff: false }),
    sampleTypes: types,
    sampleType: types[index],
    unit: grafanaUnit(pprofUnit),
    profileTypeId: `${name}:${types[index]}:${pprofUnit}:${period}`,
  };
}
