// The stand-ins' reader of querier.v1.SelectMergeProfileRequest: its four scalar fields.

/** -> { profileTypeID, labelSelector, start, end } (unix ms) */
export function selectMergeRequest(b) {
  let i = 0;
  const varint = () => {
    let v = 0;
    let m = 1;
    for (;;) {
      const x = b[i++];
      v += (x & 0x7f) * m;
      m *= 128;
      if (x < 0x80) {
        return v;
      }
    }
  };
  const fields = {};
  while (i < b.length) {
    const tag = varint();
    if ((tag & 7) === 2) {
      const len = varint(); // read before i is: `i += varint()` would add to the old i
      fields[tag >> 3] = Buffer.from(b.subarray(i, i + len)).toString('utf8');
      i += len;
    } else {
      fields[tag >> 3] = varint();
    }
  }
  return { profileTypeID: fields[1], labelSelector: fields[2], start: fields[3], end: fields[4] };
}
