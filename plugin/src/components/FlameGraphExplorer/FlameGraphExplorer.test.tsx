import { act, fireEvent, render, screen } from '@testing-library/react';

import { TEST_IDS } from '../../constants';
import { diffTrees, Interner, readOrThrow, Tree, treeToFrame } from '@hotpath/profile-core';
import { fromAscii, printlnAfter, printlnBefore } from '@hotpath/profile-core/testing';

import { FlameGraphExplorer } from './FlameGraphExplorer';

// The toolbar as a plain (unmemoised) component that counts its renders: it renders with every
// render of the explorer, so its count says when the explorer re-rendered.
jest.mock('./Toolbar', () => {
  const actual = jest.requireActual('./Toolbar');
  return { ...actual, Toolbar: jest.fn(actual.Toolbar.type) };
});
const toolbarRenders = () => (jest.requireMock('./Toolbar').Toolbar as jest.Mock).mock.calls.length;

function setup(tree = printlnAfter()) {
  const onDrawn = jest.fn();
  render(<FlameGraphExplorer tree={tree} width={1002} height={600} onDrawn={onDrawn} />);
  return { onDrawn, overlay: screen.getByTestId(TEST_IDS.overlay) };
}

describe('FlameGraphExplorer', () => {
  it('searches and shows the share of samples matched', () => {
    setup();
    fireEvent.change(screen.getByTestId(TEST_IDS.search), { target: { value: 'println' } });
    expect(screen.getByTestId(TEST_IDS.searchShare)).toHaveTextContent('1 frames, 75.00% of samples');
  });

  it('reports a bad regular expression instead of crashing', () => {
    setup();
    fireEvent.click(screen.getByTestId(TEST_IDS.searchRegex));
    fireEvent.change(screen.getByTestId(TEST_IDS.search), { target: { value: '([' } });
    expect(screen.getByTestId(TEST_IDS.searchShare)).toHaveTextContent(/Invalid regular expression/);
  });

  it('shows a tooltip on hover and focuses on click', () => {
    const { overlay, onDrawn } = setup();
    // row 3 (y 60..80) at x=100 is fmt.Println (300 of 400 from x=0)
    fireEvent.mouseMove(overlay, { clientX: 100, clientY: 70 });
    expect(screen.getByTestId(TEST_IDS.tooltip)).toHaveTextContent('fmt.Println');
    expect(screen.getByTestId(TEST_IDS.tooltip)).toHaveTextContent('75.00%');
    const draws = onDrawn.mock.calls.length;
    fireEvent.click(overlay, { clientX: 100, clientY: 70 });
    expect(screen.getByTestId(TEST_IDS.focusPath)).toHaveTextContent('main.main › main.handler › fmt.Println');
    expect(onDrawn.mock.calls.length).toBe(draws + 1);
    act(() => screen.getByTestId(TEST_IDS.resetFocus).click());
    expect(screen.getByTestId(TEST_IDS.focusPath)).toHaveTextContent('');
  });

  it('hovering re-renders the tooltip only: it follows the pointer, changes with the node, hides on leave', () => {
    const { overlay } = setup();
    const renders = toolbarRenders();
    fireEvent.mouseMove(overlay, { clientX: 100, clientY: 70 });
    const tip = screen.getByTestId(TEST_IDS.tooltip);
    expect(tip).toHaveTextContent('fmt.Println');
    expect(tip.style.transform).toBe('translate(114px, 84px)');
    fireEvent.mouseMove(overlay, { clientX: 120, clientY: 72 }); // the same node
    expect(screen.getByTestId(TEST_IDS.tooltip)).toBe(tip);
    expect(tip.style.transform).toBe('translate(134px, 86px)');
    fireEvent.mouseMove(overlay, { clientX: 100, clientY: 10 }); // the root row
    expect(screen.getByTestId(TEST_IDS.tooltip)).toHaveTextContent(/^total/);
    expect(toolbarRenders()).toBe(renders);
    fireEvent.mouseLeave(overlay);
    expect(screen.queryByTestId(TEST_IDS.tooltip)).toBeNull();
    fireEvent.change(screen.getByTestId(TEST_IDS.search), { target: { value: 'x' } });
    expect(toolbarRenders()).toBeGreaterThan(renders); // the count does see a re-render
  });

  it('a graph shorter than the window gets canvases as tall as its rows: at the top as icicle, at the bottom as flame', () => {
    const { overlay } = setup(); // 5 rows of 20 px in a window of about 500
    const window = parseFloat((overlay.parentElement as HTMLElement).style.height);
    const canvas = () => screen.getByTestId(TEST_IDS.canvas);
    expect(window).toBeGreaterThan(300);
    expect([overlay.style.height, overlay.style.top, canvas().style.height, canvas().style.top]).toEqual(['100px', '0px', '100px', '0px']);
    fireEvent.click(screen.getByTestId(TEST_IDS.modeToggle));
    const flame = screen.getByTestId(TEST_IDS.overlay);
    expect([flame.style.height, flame.style.top, canvas().style.height, canvas().style.top]).toEqual(['100px', `${window - 100}px`, '100px', `${window - 100}px`]);
    // the root row is the canvas's last; the tooltip is placed in the window, below the canvas's top
    fireEvent.mouseMove(flame, { clientX: 100, clientY: 90 });
    const tip = screen.getByTestId(TEST_IDS.tooltip);
    expect(tip).toHaveTextContent(/^total/);
    expect(tip.style.transform).toBe(`translate(114px, ${window - 100 + 90 + 14}px)`);
    fireEvent.mouseMove(flame, { clientX: 100, clientY: 30 }); // row 3 from the bottom: fmt.Println
    expect(screen.getByTestId(TEST_IDS.tooltip)).toHaveTextContent('fmt.Println');
  });

  it('hovering does not redraw the graph', () => {
    const { overlay, onDrawn } = setup();
    const draws = onDrawn.mock.calls.length;
    fireEvent.mouseMove(overlay, { clientX: 10, clientY: 10 });
    fireEvent.mouseMove(overlay, { clientX: 500, clientY: 30 });
    expect(onDrawn.mock.calls.length).toBe(draws);
  });

  it('diff tooltip: baseline, comparison and change', () => {
    const { overlay } = setup(diffTrees(printlnBefore(), printlnAfter()));
    // widths are both sides' shares (200% in all): encoding/json.Marshal 30% + 7.5% -> [0, 187.5),
    // fmt.Println 0% + 75% -> [187.5, 562.5) of 1000 px
    fireEvent.mouseMove(overlay, { clientX: 300, clientY: 70 });
    expect(screen.getByTestId(TEST_IDS.tooltip)).toHaveTextContent('fmt.Println');
    const tip = screen.getByTestId(TEST_IDS.tooltip);
    expect(tip).toHaveTextContent('Baseline');
    expect(tip).toHaveTextContent('Comparison');
    expect(tip).toHaveTextContent('+75.00 pp');
  });

  it('toggles icicle and flame', () => {
    setup(fromAscii('total 1\n  a 1'));
    const toggle = screen.getByTestId(TEST_IDS.modeToggle);
    expect(toggle).toHaveTextContent('Icicle');
    fireEvent.click(toggle);
    expect(toggle).toHaveTextContent('Flame');
  });

  describe('per request', () => {
    const ns = (t: ReturnType<typeof printlnAfter>) => ({ ...t, unit: 'ns' });

    it('a profile per request: search totals and the tooltip in ns/req', () => {
      // 400 ns of samples over 100 requests: 4 ns/req
      render(<FlameGraphExplorer tree={ns(printlnAfter())} width={1002} height={600} unit="per-request" requests={{ left: 100 }} />);
      fireEvent.change(screen.getByTestId(TEST_IDS.search), { target: { value: 'println' } });
      expect(screen.getByTestId(TEST_IDS.searchShare)).toHaveTextContent('1 frames: 3.00 ns/req (75.00% of samples)');
      fireEvent.mouseMove(screen.getByTestId(TEST_IDS.overlay), { clientX: 100, clientY: 70 });
      expect(screen.getByTestId(TEST_IDS.tooltip)).toHaveTextContent(/fmt\.Println.*Total3\.00 ns\/req \(75\.00%\)/);
      expect(screen.getByTestId(TEST_IDS.topTable)).toHaveTextContent('3.00 ns/req');
    });

    it('a diff per request: the tooltip gives the change per request and relative; without counts it falls back to share', () => {
      const diff = diffTrees(ns(printlnBefore()), ns(printlnAfter()));
      const { unmount } = render(<FlameGraphExplorer tree={diff} width={1002} height={600} unit="per-request" requests={{ left: 100, right: 100 }} />);
      // the root row: 1 ns/req before, 4 ns/req after
      fireEvent.mouseMove(screen.getByTestId(TEST_IDS.overlay), { clientX: 10, clientY: 10 });
      expect(screen.getByTestId(TEST_IDS.tooltip)).toHaveTextContent('+3.00 ns/req (+300.0%)');
      expect(screen.getByTestId(TEST_IDS.legend)).toHaveTextContent('per request');
      unmount();
      render(<FlameGraphExplorer tree={diff} width={1002} height={600} unit="per-request" requests={{ left: 100 }} />);
      fireEvent.mouseMove(screen.getByTestId(TEST_IDS.overlay), { clientX: 10, clientY: 10 });
      expect(screen.getByTestId(TEST_IDS.tooltip)).toHaveTextContent('of total share');
    });
  });

  describe('sandwich', () => {
    it('a function picked in the table: callers above, callees below; the toggle turns it off', () => {
      render(<FlameGraphExplorer tree={diffTrees(printlnBefore(), printlnAfter())} width={1002} height={700} />);
      expect(screen.queryByTestId(TEST_IDS.sandwichToggle)).not.toBeInTheDocument();
      const row = [...screen.getByTestId(TEST_IDS.topTable).querySelectorAll('tbody tr')].find((r) => r.textContent!.startsWith('main.handler'))!;
      fireEvent.click(row);
      fireEvent.click(screen.getByTestId(TEST_IDS.sandwichToggle));
      const sw = screen.getByTestId(TEST_IDS.sandwich);
      expect(sw).toHaveAttribute('data-function', 'main.handler');
      expect(sw).toHaveAttribute('data-occurrences', '1');
      expect(screen.getByTestId(TEST_IDS.sandwichCallers)).toBeInTheDocument();
      expect(screen.getByTestId(TEST_IDS.sandwichCallees)).toBeInTheDocument();
      expect(screen.getAllByTestId(TEST_IDS.canvas)).toHaveLength(2);
      fireEvent.click(screen.getByTestId(TEST_IDS.sandwichToggle));
      expect(screen.queryByTestId(TEST_IDS.sandwich)).not.toBeInTheDocument();
    });
  });
  describe('string labels', () => {
    /** a string-label frame of the tree, as datasources other than Pyroscope send it */
    const stringTree = (tree: Tree) => {
      const frame = treeToFrame(tree);
      const label = frame.fields.find((f) => f.name === 'label')!;
      label.type = 'string' as never;
      label.config = {};
      label.values = Array.from(tree.nameId, (id) => tree.names[id]);
      return readOrThrow(frame);
    };

    it('draws before interning the labels; interns them a frame later, and the table reads them by name', () => {
      const tree = stringTree(printlnAfter());
      const another = stringTree(printlnAfter());
      jest.useFakeTimers();
      const interned = jest.spyOn(Interner.prototype, 'id');
      try {
        const { unmount } = render(<FlameGraphExplorer tree={tree} width={1002} height={600} options={{ showTable: false }} />);
        expect(screen.getByTestId(TEST_IDS.canvas)).toBeInTheDocument();
        expect(interned).not.toHaveBeenCalled();
        act(() => jest.runAllTimers());
        expect(interned).toHaveBeenCalledTimes(tree.size);
        unmount();
        // with the table shown, the labels are interned before the first paint: one row per function
        interned.mockClear();
        render(<FlameGraphExplorer tree={another} width={1002} height={600} />);
        expect(interned).toHaveBeenCalled();
        const names = [...screen.getByTestId(TEST_IDS.topTable).querySelectorAll('tbody tr')].map((r) => r.querySelector('td')!.textContent);
        expect(new Set(names).size).toBe(names.length);
      } finally {
        interned.mockRestore();
        jest.useRealTimers();
      }
    });
  });
});
