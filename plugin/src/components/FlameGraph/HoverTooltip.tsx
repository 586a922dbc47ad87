import { forwardRef, useImperativeHandle, useRef, useState } from 'react';

import { Tree, ValueUnit } from '@hotpath/profile-core';

import { Tooltip, tooltipTransform } from './Tooltip';

/** What the graph calls on every pointer move. */
export interface HoverHandle {
  /** the node under the pointer (-1: none) and the pointer's position in the graph */
  show(node: number, x: number, y: number): void;
}

interface Props {
  tree: Tree;
  unit: ValueUnit;
}

/**
 * The tooltip under the pointer, holding the hover state itself: a pointer move over a new node
 * re-renders this tooltip only, and one over the same node moves its box without React at all.
 * The explorer around it (toolbar, tables, the memoised canvas) never re-renders on hover.
 */
export const HoverTooltip = forwardRef<HoverHandle, Props>(function HoverTooltip({ tree, unit }, ref) {
  const [node, setNode] = useState(-1);
  const pos = useRef({ x: 0, y: 0 });
  const box = useRef<HTMLDivElement>(null);
  useImperativeHandle(
    ref,
    () => ({
      show(n, x, y) {
        pos.current = { x, y };
        setNode(n); // the same node: React bails out, and the box moves below
        if (box.current) {
          box.current.style.transform = tooltipTransform(x, y);
        }
      },
    }),
    []
  );
  if (node < 0 || node >= tree.size) {
    return null;
  }
  return <Tooltip tree={tree} node={node} x={pos.current.x} y={pos.current.y} unit={unit} boxRef={box} />;
});
