import { Sandwich, Tree, ValueUnit } from '@hotpath/profile-core';

import { CallTree } from './CallTree';

interface Props {
  tree: Tree;
  /** the sandwich's callers and callees, when it is on: two trees instead of the profile's */
  sandwich?: { name: string; trees: Sandwich };
  width: number;
  height: number;
  /** under the flame graph: a gap above it */
  below: boolean;
  unit: ValueUnit;
  requests: { left?: number; right?: number };
  focus: number;
  onFocus: (node: number) => void;
  matches?: Uint8Array;
}

/** The explorer's call tree pane: the profile's tree in step with the flame graph, or the sandwich's two. */
export function TreePane({ tree, sandwich, width, height, below, unit, requests, focus, onFocus, matches }: Props) {
  const margin = below ? 4 : 0;
  if (sandwich) {
    const half = Math.floor((height - margin) / 2);
    return (
      <div style={{ marginTop: margin }}>
        <CallTree tree={sandwich.trees.callers} width={width} height={half} unit={unit} requests={requests} caption={`Callers of ${sandwich.name} (its callers' callers below them)`} />
        <CallTree tree={sandwich.trees.callees} width={width} height={half} unit={unit} requests={requests} caption={`Callees of ${sandwich.name}`} />
      </div>
    );
  }
  return (
    <div style={{ marginTop: margin }}>
      <CallTree tree={tree} width={width} height={height - margin} unit={unit} requests={requests} focus={focus} onFocus={onFocus} matches={matches} />
    </div>
  );
}
