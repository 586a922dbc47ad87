// Flag values shared by the commands: durations and counts, each refused with the flag's name.

/** 90s, 5m, 1h, 1500ms, 14d, and Go's 2m0s or 1h30m -> ms; undefined when the text is none of them. */
export function parseDuration(v = '') {
  const parts = [...v.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== v) {
    return undefined;
  }
  return parts.reduce((ms, p) => ms + Number(p[1]) * { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 }[p[2]], 0);
}

/** Readers of parsed flags: duration(name) in ms, count(name) >= 1, fraction(name) in (0, 1); a bad value calls fail with its flag. */
export function flagReaders(args, fail) {
  return {
    duration(name) {
      const ms = parseDuration(args[name] ?? '');
      if (ms === undefined) {
        fail(`--${name} ${args[name] ?? ''}: want a duration such as 90s, 5m, 1h or 1h30m`);
      }
      return ms;
    },
    count(name) {
      const n = Number(args[name]);
      if (!Number.isInteger(n) || n < 1) {
        fail(`--${name} ${args[name]}: want a whole number >= 1`);
      }
      return n;
    },
    fraction(name) {
      const x = Number(args[name]);
      if (!(x > 0 && x < 1)) {
        fail(`--${name} ${args[name]}: want a number above 0 and below 1, e.g. 0.01`);
      }
      return x;
    },
  };
}
