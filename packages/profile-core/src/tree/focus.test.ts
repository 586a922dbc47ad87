import { toAscii } from '../testing/ascii';
import { subtree } from './focus';
import { printlnAfter } from '../testing/trees';

describe('focus', () => {
  it('focuses on a subtree', () => {
    const tree = printlnAfter();
    const i = Array.from(tree.nameId).findIndex((id) => tree.names[id] === 'fmt.Println');
    expect(toAscii(subtree(tree, i))).toBe(
      'fmt.Println 300\n  google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format 280'
    );
  });
});
