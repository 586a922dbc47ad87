// Prometheus durations ('30s', '5m', '1h30m', '1d') to seconds and back, so
// windows and counts derived from knobs (history steps, intervals) stay exact.
local units = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800, y: 31536000 };
local isDigit(c) = std.member('0123456789', c);

// Reads "<digits><unit>" pairs left to right.
local seconds(d) =
  local cs = std.stringChars(d);
  local n = std.length(cs);
  local runEnd(i, digits) = if i < n && isDigit(cs[i]) == digits then runEnd(i + 1, digits) else i;
  local parse(i, total) =
    if i >= n then total
    else
      local numEnd = runEnd(i, true);
      local unitEnd = runEnd(numEnd, false);
      local unit = std.join('', cs[numEnd:unitEnd]);
      assert numEnd > i && std.objectHas(units, unit) : 'not a Prometheus duration: %s' % d;
      parse(unitEnd, total + std.parseInt(std.join('', cs[i:numEnd])) * units[unit]);
  assert n > 0 : 'empty duration';
  parse(0, 0);

// The shortest exact form: 1800 -> '30m', 86400 -> '1d', 90 -> '90s'.
local format(s) =
  assert s > 0 && s == std.floor(s) : 'not a whole number of seconds: %s' % s;
  if s % 86400 == 0 then '%dd' % (s / 86400)
  else if s % 3600 == 0 then '%dh' % (s / 3600)
  else if s % 60 == 0 then '%dm' % (s / 60)
  else '%ds' % s;

{
  seconds:: seconds,
  format:: format,
}
