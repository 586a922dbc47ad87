/**
 * What can be wrong with a profile, as one closed set: every reader of profiles (frames, pprof
 * files, diffs) throws a ProfileError of one of these kinds, and the panel titles its error view
 * by the kind. A module of its own so that the low-level decoders need not import the frame
 * reader.
 */
export const PROFILE_ERROR_KINDS = [
  'no-data',
  'missing-field',
  'wrong-type',
  'invalid-value',
  'order',
  'length',
  'empty',
  'mismatch',
  'pprof',
] as const;

export type ProfileErrorKind = (typeof PROFILE_ERROR_KINDS)[number];

export class ProfileError extends Error {
  constructor(
    readonly kind: ProfileErrorKind,
    message: string,
    readonly field?: string,
    readonly row?: number
  ) {
    super(message);
    this.name = 'ProfileError';
  }
}
