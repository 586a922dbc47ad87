// Why a row of the conformance suite differs from go tool pprof, by case. Each entry says
// what differs and why hotpath does what it does; the suite fails on a difference not here.
const KNOWN = [];

/** the reason for a differing row, or undefined */
export function explain(file, type, check, row) {
  return KNOWN.find((k) => k.match(file, type, check, row))?.reason;
}
