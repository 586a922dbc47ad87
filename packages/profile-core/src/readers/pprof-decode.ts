import { Gunzip, gunzipSync } from 'fflate';
import { Decompress as Unzstd } from 'fzstd';

import { ProfileError } from './errors';

/**
 * A strict, streaming reader of pprof's protobuf (profile.proto), with the checks and the
 * words of google/pprof's own hand-written decoder (profile/proto.go, encode.go) and
 * CheckValid: a truncated or malformed protobuf is "unrecognized profile format", reserved
 * id 0 and duplicate ids are refused. int64 fields are signed (diff profiles carry negative
 * values). Samples are not materialised: `forEachSample` walks them in the bytes, so memory is
 * the decompressed bytes plus the tables, whatever the sample count (10M samples of a few
 * frames fit in well under 1 GB).
 *
 * Why not pprof-format (npm): it reads int64 as unsigned, accepts truncated messages and
 * builds an object per sample; pprof itself decodes by hand for the same reasons.
 */

/** Largest profile read, compressed or not (a 1.2 MB real CPU profile is 425k tree nodes). */
export const MAX_PPROF_BYTES = 256 * 1024 * 1024;

export interface PprofFunction {
  name: string;
  systemName: string;
  filename: string;
}

export interface PprofLocation {
  mappingId: number;
  address: number;
  /** function id of each line, innermost (inlined callee) first, as pprof stores them */
  functionIds: number[];
}

export interface PprofSample {
  /** location ids, leaf first */
  locationIds: ArrayLike<number>;
  /** one signed value per sample type */
  values: ArrayLike<number>;
  /** labelled pprof::base=true: a base sample of a `go tool pprof -diff_base` profile */
  diffBase: boolean;
}

export interface PprofProfile {
  strings: string[];
  sampleTypes: Array<{ type: string; unit: string }>;
  defaultSampleType: string;
  periodType?: { type: string; unit: string };
  dropFrames: string;
  keepFrames: string;
  functions: Map<number, PprofFunction>;
  locations: Map<number, PprofLocation>;
  mappings: Map<number, { file: string }>;
  sampleCount: number;
  /** sum of |value| per sample type, and of signed values */
  absTotals: number[];
  hasNegative: boolean;
  hasDiffBase: boolean;
  /** calls fn for each sample in file order; the arrays are reused between calls */
  forEachSample(fn: (s: PprofSample) => void): void;
}

const TWO32 = 4294967296;

/** A cursor over protobuf bytes; every read is bounds-checked (pprof: "unrecognized profile format"). */
class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length
  ) {
    this.pos = start;
  }

  /** varint as a signed int64 (two's complement), converted to a double */
  int64(): number {
    const b = this.buf;
    let p = this.pos;
    // fast path: up to 4 bytes (values < 2^28), the common case for ids, counts and indexes
    let lo = 0;
    let shift = 0;
    for (let i = 0; i < 4; i++) {
      if (p >= this.end) {
        throw bad('a varint runs past the end of its message');
      }
      const c = b[p++];
      lo |= (c & 0x7f) << shift;
      if (c < 0x80) {
        this.pos = p;
        return lo;
      }
      shift += 7;
    }
    // bytes 5..10: bits 28..63
    let hi = 0;
    if (p >= this.end) {
      throw bad('a varint runs past the end of its message');
    }
    let c = b[p++];
    lo |= (c & 0x7f) << 28;
    hi = (c & 0x7f) >> 4;
    shift = 3;
    for (let i = 5; c >= 0x80; i++) {
      if (i >= 10 || p >= this.end) {
        throw bad('bad varint');
      }
      c = b[p++];
      hi |= (c & 0x7f) << shift;
      shift += 7;
    }
    this.pos = p;
    return (hi | 0) * TWO32 + (lo >>> 0);
  }

  /** varint as an unsigned uint64 (ids, addresses), converted to a double */
  uint64(): number {
    const v = this.int64();
    return v < 0 ? v + TWO32 * TWO32 : v;
  }

  /**
   * Reads this message's fields to its end into `into`: each field `fields` knows is read by its
   * reader, any other skipped (protobuf's rule for fields a reader does not know).
   */
  message<T>(fields: Fields<T>, into: T): T {
    while (this.pos < this.end) {
      // a key is one byte for fields 1-15, the only ones profile.proto uses
      const first = this.buf[this.pos];
      let key = first;
      if (first < 0x80) {
        this.pos++;
      } else {
        key = this.uint64();
      }
      const wire = key % 8;
      const read = fields[Math.floor(key / 8)];
      if (read) {
        read(this, wire, into);
      } else {
        this.skip(wire);
      }
    }
    return into;
  }

  /** length of a length-delimited field; the field must fit in its message */
  len(): number {
    const n = this.uint64();
    if (n > this.end - this.pos) {
      throw bad('a length-delimited field is longer than its message (truncated?)');
    }
    return n;
  }

  skip(wire: number) {
    switch (wire) {
      case 0:
        this.int64();
        return;
      case 1:
        this.advance(8);
        return;
      case 2:
        this.advance(this.len());
        return;
      case 5:
        this.advance(4);
        return;
      default:
        throw bad(`unknown wire type: ${wire}`);
    }
  }

  advance(n: number) {
    if (this.pos + n > this.end) {
      throw bad('not enough data');
    }
    this.pos += n;
  }

  /** a sub-reader over a length-delimited field */
  sub(wire: number): Reader {
    expectWire(wire, 2);
    const n = this.len();
    const r = new Reader(this.buf, this.pos, this.pos + n);
    this.pos += n;
    return r;
  }

  /** a repeated scalar field, packed (wire 2) or one value (wire 0) */
  repeated(wire: number, out: number[], signed: boolean) {
    if (wire === 0) {
      out.push(signed ? this.int64() : this.uint64());
      return;
    }
    const r = this.sub(wire);
    while (r.pos < r.end) {
      out.push(signed ? r.int64() : r.uint64());
    }
    this.pos = r.end;
  }

  /** the bytes of a length-delimited field */
  bytes(wire: number): Uint8Array {
    const r = this.sub(wire);
    return this.buf.subarray(r.pos, r.end);
  }
}

/** Reads one field of a message (its key already read) into the message's record. */
type FieldReader<T> = (r: Reader, wire: number, into: T) => void;

/** How to read the fields of one message type: by field number, a reader that fills `into`. */
type Fields<T> = Partial<Record<number, FieldReader<T>>>;

/**
 * pprof's "unrecognized profile format": the bytes are no profile.proto message. Its own type,
 * because decodePprof then looks for the other formats it can name.
 */
class UnrecognizedFormat extends ProfileError {
  constructor(why: string) {
    super('pprof', `unrecognized profile format (${why})`);
  }
}

const bad = (why: string) => new UnrecognizedFormat(why);

function expectWire(got: number, want: number) {
  if (got !== want) {
    throw bad('type mismatch');
  }
}

function scalar(r: Reader, wire: number, signed = true): number {
  expectWire(wire, 0);
  return signed ? r.int64() : r.uint64();
}

/** pprof's legacy formats, recognised by their first bytes (profile/legacy_profile.go). */
function legacyKind(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 64));
  const text: Array<[RegExp, string]> = [
    [/^heap profile: /, 'heap profile'],
    [/^heap_v2\//, 'heap profile'],
    [/^--- (heapz|contentionz|threadz|contention|growthz) /, 'profile'],
    [/^--- contention/, 'contention profile'],
    [/^(goroutine|threadcreate) profile: total/, 'goroutine/threadcreate profile'],
    [/^--- Thread /, 'thread profile'],
  ];
  for (const [rx, kind] of text) {
    if (rx.test(head)) {
      return `pprof's legacy text format (${kind})`;
    }
  }
  // gperftools' binary CPU profile: header words 0, 3, 0|1 (version), period; 32- or 64-bit words
  const words32 = bytes.length >= 12 && bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0 && bytes[3] === 0;
  if (words32) {
    const w = (i: number) => bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    if ((w(4) === 3 && (w(8) === 0 || w(8) === 1)) || (bytes.length >= 24 && w(8) === 3 && w(16) === 0)) {
      return "pprof's legacy binary CPU format (gperftools)";
    }
  }
  return undefined;
}

/** A JFR chunk starts with the magic "FLR\\0". */
const isJfr = (b: Uint8Array) => b.length >= 4 && b[0] === 0x46 && b[1] === 0x4c && b[2] === 0x52 && b[3] === 0;

/** Decompresses (when gzip or zstd) and checks the size, before any decoding. */
export function pprofBytes(bytes: Uint8Array, max = MAX_PPROF_BYTES): Uint8Array {
  if (bytes.length === 0) {
    throw new ProfileError('pprof', 'empty input file: the pprof file has 0 bytes.');
  }
  if (bytes.length > max) {
    throw tooLarge(bytes.length, max);
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    return inflated('gzip', () => gunzipCapped(bytes, max));
  }
  // dd-trace-py (ddtrace 4) writes its pprof files zstd-compressed; Pyroscope reads them, so we do
  if (bytes.length >= 4 && bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd) {
    return inflated('zstd', () => unzstdCapped(bytes, max));
  }
  return bytes;
}

/** The decompressed bytes, or pprof's words for a stream that is corrupt, cut short or empty. */
function inflated(kind: 'gzip' | 'zstd', inflate: () => Uint8Array): Uint8Array {
  let raw: Uint8Array;
  try {
    raw = inflate();
  } catch (e) {
    if (e instanceof ProfileError) {
      throw e;
    }
    throw new ProfileError('pprof', `not a valid ${kind}-compressed pprof profile (decompressing profile: ${(e as Error).message}: corrupt or truncated).`);
  }
  if (raw.length === 0) {
    throw new ProfileError('pprof', `empty input file: the ${kind} stream holds 0 bytes.`);
  }
  return raw;
}

/** zstd within `max`, streaming, so that a bomb stops at the limit; a stream cut short is an error. */
function unzstdCapped(bytes: Uint8Array, max: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  const z = new Unzstd((chunk, final) => {
    size += chunk.length;
    if (size > max) {
      throw tooLarge(size, max, 'decompressed (and more)');
    }
    chunks.push(chunk);
    ended ||= !!final;
  });
  z.push(bytes, true);
  if (!ended) {
    throw new Error('unexpected EOF');
  }
  return concat(chunks, size);
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * gunzip within `max`, never holding more than `max` inflated bytes: gzip's trailer states the
 * size (ISIZE, mod 2^32). Within the limit: one gunzipSync into a buffer of that size (2x faster
 * than streaming), which fflate never grows (a stream longer than its trailer says is cut there,
 * and refused). Above it, or without one (a bomb, or a truncated file whose last bytes are no
 * trailer), the stream cannot be the size it says: it is inflated in slices and only counted,
 * kept nowhere, to tell a bomb (past the limit: too large) from a file cut short (pprof's
 * "unexpected EOF", as for a wrong trailer).
 */
function gunzipCapped(bytes: Uint8Array, max: number): Uint8Array {
  const n = bytes.length;
  const isize = n >= 18 ? (bytes[n - 4] | (bytes[n - 3] << 8) | (bytes[n - 2] << 16) | (bytes[n - 1] << 24)) >>> 0 : -1;
  if (isize >= 0 && isize <= max) {
    const raw = gunzipSync(bytes);
    if (raw.length !== isize) {
      throw new Error('unexpected EOF');
    }
    return raw;
  }
  // No answer can come of this stream, only which error: inflated in slices (one push inflates
  // at most what its slice can) and counted, kept nowhere, until it passes the limit or ends
  let size = 0;
  const g = new Gunzip((chunk) => {
    size += chunk.length;
    if (size > max) {
      throw tooLarge(size, max, 'decompressed (and more)');
    }
  });
  for (let at = 0; at < n; at += GUNZIP_SLICE) {
    g.push(bytes.subarray(at, at + GUNZIP_SLICE), at + GUNZIP_SLICE >= n);
  }
  throw new Error('unexpected EOF');
}

/** Compressed bytes inflated at a time where the trailer does not bound the stream: 8 KiB in, 8.3 MiB out at most. */
const GUNZIP_SLICE = 1 << 10;

function tooLarge(n: number, max: number, what = '') {
  const mb = (v: number) => `${Math.round((v / 1048576) * 10) / 10} MiB`;
  return new ProfileError(
    'pprof',
    `the profile is ${mb(n)}${what ? ` ${what}` : ''}, above the ${mb(max)} hotpath reads (MAX_PPROF_BYTES): ` +
      'narrow it first, e.g. `go tool pprof -proto -focus=... -nodecount=...`.'
  );
}

/** Reads a pprof profile (gzip-compressed or not) and validates it as pprof's CheckValid does. */
export function decodePprof(input: Uint8Array, opts: { maxBytes?: number } = {}): PprofProfile {
  const buf = pprofBytes(input, opts.maxBytes);
  try {
    return decode(buf);
  } catch (e) {
    if (e instanceof UnrecognizedFormat) {
      const legacy = legacyKind(buf);
      if (legacy) {
        throw new ProfileError('pprof', `this is ${legacy}: convert it with \`go tool pprof -proto FILE > FILE.pb.gz\`.`);
      }
      if (isJfr(buf)) {
        throw new ProfileError(
          'pprof',
          'this is a JFR recording (Java Flight Recorder), not pprof: read it through Pyroscope, which converts JFR on ingest, ' +
            "or convert it to pprof first (async-profiler's jfrconv and grafana/jfr-parser both can)."
        );
      }
    }
    throw e;
  }
}

/**
 * The field numbers of profile.proto (github.com/google/pprof, proto/profile.proto) that hotpath
 * reads; every other field is skipped.
 */
const PROFILE = { sampleType: 1, sample: 2, mapping: 3, location: 4, function: 5, stringTable: 6, dropFrames: 7, keepFrames: 8, periodType: 11, defaultSampleType: 14 } as const;
const VALUE_TYPE = { type: 1, unit: 2 } as const;
const SAMPLE = { locationId: 1, value: 2, label: 3 } as const;
const LABEL = { key: 1, str: 2 } as const;
const MAPPING = { id: 1, filename: 5 } as const;
const LOCATION = { id: 1, mappingId: 2, address: 3, line: 4 } as const;
const LINE = { functionId: 1 } as const;
const FUNCTION = { id: 1, name: 2, systemName: 3, filename: 4 } as const;

/** The top-level fields as the bytes hold them: string indexes, ids, samples only counted. */
interface RawProfile {
  strings: string[];
  types: RawValueType[];
  periodType?: RawValueType;
  defaultType: number;
  dropX: number;
  keepX: number;
  functions: Array<{ id: number; name: number; system: number; file: number }>;
  locations: Map<number, PprofLocation>;
  mappings: Array<{ id: number; file: number }>;
  sampleCount: number;
}

const utf8 = new TextDecoder();

/** A ValueType's string indexes. */
interface RawValueType {
  type: number;
  unit: number;
}

/** The names of T's number fields. */
type NumberKey<T> = { [K in keyof T]: T[K] extends number ? K : never }[keyof T];

/** A field's reader that stores its scalar in `into[key]` (a signed int64 unless `signed` is false). */
function scalarInto<T>(key: NumberKey<T>, signed = true): FieldReader<T> {
  return (r, w, into) => {
    (into as Record<NumberKey<T>, number>)[key] = scalar(r, w, signed);
  };
}

const VALUE_TYPE_FIELDS: Fields<RawValueType> = { [VALUE_TYPE.type]: scalarInto('type'), [VALUE_TYPE.unit]: scalarInto('unit') };
const valueType = (r: Reader, wire: number) => r.sub(wire).message<RawValueType>(VALUE_TYPE_FIELDS, { type: 0, unit: 0 });

const MAPPING_FIELDS: Fields<RawProfile['mappings'][number]> = { [MAPPING.id]: scalarInto('id', false), [MAPPING.filename]: scalarInto('file') };

const FUNCTION_FIELDS: Fields<RawProfile['functions'][number]> = {
  [FUNCTION.id]: scalarInto('id', false),
  [FUNCTION.name]: scalarInto('name'),
  [FUNCTION.systemName]: scalarInto('system'),
  [FUNCTION.filename]: scalarInto('file'),
};

const LINE_FIELDS: Fields<{ functionId: number }> = { [LINE.functionId]: scalarInto('functionId', false) };

const LOCATION_FIELDS: Fields<PprofLocation & { id: number }> = {
  [LOCATION.id]: scalarInto('id', false),
  [LOCATION.mappingId]: scalarInto('mappingId', false),
  [LOCATION.address]: scalarInto('address', false),
  [LOCATION.line]: (r, w, l) => {
    l.functionIds.push(r.sub(w).message(LINE_FIELDS, { functionId: 0 }).functionId);
  },
};

const PROFILE_FIELDS: Fields<RawProfile> = {
  [PROFILE.sampleType]: (r, w, p) => {
    p.types.push(valueType(r, w));
  },
  [PROFILE.sample]: (r, w, p) => {
    r.sub(w); // decoded later, by forEachSample
    p.sampleCount++;
  },
  [PROFILE.mapping]: (r, w, p) => {
    p.mappings.push(r.sub(w).message(MAPPING_FIELDS, { id: 0, file: 0 }));
  },
  [PROFILE.location]: (r, w, p) => {
    const { id, ...loc } = r.sub(w).message(LOCATION_FIELDS, { id: 0, mappingId: 0, address: 0, functionIds: [] });
    if (id === 0) {
      throw malformed('found location with reserved id=0');
    }
    if (p.locations.has(id)) {
      throw malformed(`multiple locations with same id: ${id}`);
    }
    p.locations.set(id, loc);
  },
  [PROFILE.function]: (r, w, p) => {
    p.functions.push(r.sub(w).message(FUNCTION_FIELDS, { id: 0, name: 0, system: 0, file: 0 }));
  },
  [PROFILE.stringTable]: (r, w, p) => {
    p.strings.push(utf8.decode(r.bytes(w)));
    if (p.strings[0] !== '') {
      throw bad("string_table[0] must be ''");
    }
  },
  [PROFILE.dropFrames]: scalarInto('dropX'),
  [PROFILE.keepFrames]: scalarInto('keepX'),
  [PROFILE.periodType]: (r, w, p) => {
    p.periodType = valueType(r, w);
  },
  [PROFILE.defaultSampleType]: scalarInto('defaultType'),
};

/** One sample as forEachSample fills it (its arrays reused from sample to sample). */
interface SampleBuffer extends PprofSample {
  locationIds: number[];
  values: number[];
}

/** A sample's fields; its labels only matter for `pprof::base=true` (when the string table has both). */
function sampleFields(baseKey: number, trueX: number): Fields<SampleBuffer> {
  const fields: Fields<SampleBuffer> = {
    [SAMPLE.locationId]: (r, w, s) => r.repeated(w, s.locationIds, false),
    [SAMPLE.value]: (r, w, s) => r.repeated(w, s.values, true),
  };
  if (baseKey > 0) {
    fields[SAMPLE.label] = (r, w, s) => {
      const label = r.sub(w).message(LABEL_FIELDS, { key: 0, str: 0 });
      if (label.key === baseKey && label.str === trueX) {
        s.diffBase = true;
      }
    };
  }
  return fields;
}

const LABEL_FIELDS: Fields<{ key: number; str: number }> = { [LABEL.key]: scalarInto('key'), [LABEL.str]: scalarInto('str') };

function decode(buf: Uint8Array): PprofProfile {
  const raw = new Reader(buf).message<RawProfile>(PROFILE_FIELDS, {
    strings: [],
    types: [],
    defaultType: 0,
    dropX: 0,
    keepX: 0,
    functions: [],
    locations: new Map(),
    mappings: [],
    sampleCount: 0,
  });
  const { strings, types, periodType, defaultType, dropX, keepX, locations, sampleCount } = raw;
  const str = (i: number) => {
    if (i < 0 || i >= strings.length || !Number.isInteger(i)) {
      // pprof fails this in postDecode, before its validity checks
      throw bad(`string index ${i} is outside the string table of ${strings.length} (truncated?)`);
    }
    return strings[i];
  };
  const functions = new Map<number, PprofFunction>();
  for (const f of raw.functions) {
    if (f.id === 0) {
      throw malformed('found function with reserved ID=0');
    }
    if (functions.has(f.id)) {
      throw malformed(`multiple functions with same id: ${f.id}`);
    }
    functions.set(f.id, { name: str(f.name), systemName: str(f.system), filename: str(f.file) });
  }
  const mappings = new Map<number, { file: string }>();
  for (const m of raw.mappings) {
    if (m.id === 0) {
      throw malformed('found mapping with reserved ID=0');
    }
    if (mappings.has(m.id)) {
      throw malformed(`multiple mappings with same id: ${m.id}`);
    }
    mappings.set(m.id, { file: str(m.file) });
  }
  for (const [id, l] of locations) {
    for (const fn of l.functionIds) {
      if (!functions.has(fn)) {
        throw malformed(`location id: ${id} has a line with ${fn === 0 ? 'nil' : `undefined (${fn})`} function`);
      }
    }
    if (l.mappingId !== 0 && !mappings.has(l.mappingId)) {
      throw malformed(`location id: ${id} refers to mapping ${l.mappingId}, which is not defined`);
    }
  }
  const sampleTypes = types.map((t) => ({ type: str(t.type), unit: str(t.unit) }));
  if (sampleTypes.length === 0 && sampleCount > 0) {
    throw malformed('missing sample type information');
  }
  const baseKey = strings.indexOf('pprof::base');
  const trueX = strings.indexOf('true');

  const fields = sampleFields(baseKey, trueX);
  const forEachSample = (fn: (s: PprofSample) => void) => {
    const sample: SampleBuffer = { locationIds: [], values: [], diffBase: false };
    new Reader(buf).message(
      {
        [PROFILE.sample]: (r, w, s) => {
          s.locationIds.length = 0;
          s.values.length = 0;
          s.diffBase = false;
          fn(r.sub(w).message(fields, s));
        },
      },
      sample
    );
  };

  // one validating pass: value counts, location references, totals per type
  const absTotals = sampleTypes.map(() => 0);
  let hasNegative = false;
  let hasDiffBase = false;
  forEachSample((s) => {
    if (s.values.length !== sampleTypes.length) {
      throw malformed(`mismatch: sample has ${s.values.length} values vs. ${sampleTypes.length} types`);
    }
    for (let k = 0; k < s.locationIds.length; k++) {
      if (!locations.has(s.locationIds[k])) {
        throw malformed(`a sample refers to location ${s.locationIds[k]}, which is not defined`);
      }
    }
    for (let t = 0; t < s.values.length; t++) {
      const v = s.values[t];
      if (v < 0) {
        hasNegative = true;
      }
      absTotals[t] += Math.abs(v);
    }
    hasDiffBase ||= s.diffBase;
  });

  return {
    strings,
    sampleTypes,
    defaultSampleType: defaultType ? str(defaultType) : '',
    periodType: periodType ? { type: str(periodType.type), unit: str(periodType.unit) } : undefined,
    dropFrames: str(dropX),
    keepFrames: str(keepX),
    functions,
    locations,
    mappings,
    sampleCount,
    absTotals,
    hasNegative,
    hasDiffBase,
    forEachSample,
  };
}

const malformed = (why: string) => new ProfileError('pprof', `malformed profile: ${why}.`);
