import { fireEvent, render, screen } from '@testing-library/react';

import { TEST_IDS } from '../constants/index';
import { changesByUnit, checkCount, diffTrees, topTable } from '@hotpath/profile-core';
import { fromAscii, printlnAfter, printlnBefore, recursive } from '@hotpath/profile-core/testing';

import { computeLayout } from '../render/layout';

import { ChangesTable } from './TopTable/ChangesTable';
import { ErrorView } from './Overlay/ErrorView';
import { FlameGraphCanvas } from './FlameGraph/FlameGraphCanvas';
import { Toolbar } from './FlameGraphExplorer/Toolbar';
import { Tooltip } from './FlameGraph/Tooltip';
import { sortRows, TopTable } from './TopTable/TopTable';

describe('TopTable', () => {
  it('sorts by a column when its header is clicked', () => {
    const onSort = jest.fn();
    const rows = topTable(recursive());
    render(<TopTable rows={rows} unit="short" total={10} sort={{ key: 'self', desc: true }} onSort={onSort} onSelect={jest.fn()} />);
    fireEvent.click(screen.getByText('Function'));
    expect(onSort).toHaveBeenCalledWith({ key: 'name', desc: false });
    fireEvent.click(screen.getByText(/^Self/));
    expect(onSort).toHaveBeenCalledWith({ key: 'self', desc: false });
  });

  it('orders rows', () => {
    const rows = topTable(recursive());
    expect(sortRows(rows, { key: 'total', desc: true }).map((r) => r.name)).toEqual(['main.walk', 'total', 'main.visit']);
    expect(sortRows(rows, { key: 'name', desc: false })[0].name).toBe('main.visit');
  });
});

describe('ChangesTable', () => {
  it('ranks functions by change of self share', () => {
    const onSelect = jest.fn();
    render(<ChangesTable rows={changesByUnit(diffTrees(printlnBefore(), printlnAfter()), 'share')} unit="share" profileUnit="short" onSelect={onSelect} />);
    const rows = screen.getByTestId(TEST_IDS.changesTable).querySelectorAll('tbody tr');
    expect(rows[0]).toHaveTextContent('+70.00 pp');
    // without request counts there is no per-request column (not a column of zeros)
    expect(rows[0].querySelector('[data-col="per-request"]')).toBeNull();
    expect(rows[0].querySelector('[data-col="absolute"]')).toHaveTextContent('+280.00');
    fireEvent.click(rows[0]);
    expect(onSelect).toHaveBeenCalledWith('google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format');
  });

  it('per request: the three deltas side by side; the cache path, unchanged per request, is not flagged', () => {
    const profile = (t: ReturnType<typeof printlnAfter>) => ({ ...t, unit: 'ns' });
    const diff = diffTrees(profile(printlnBefore()), profile(printlnAfter()));
    const counts = { baseline: checkCount(10), comparison: checkCount(10) };
    render(<ChangesTable rows={changesByUnit(diff, 'per-request', counts)} unit="per-request" profileUnit="ns" onSelect={jest.fn()} />);
    const rows = [...screen.getByTestId(TEST_IDS.changesTable).querySelectorAll('tbody tr')];
    const cell = (r: Element, c: string) => r.querySelector(`[data-col="${c}"]`)!.textContent;
    expect(cell(rows[0], 'per-request')).toBe('+28.00 ns/req');
    expect(cell(rows[0], 'absolute')).toBe('+280.00 ns');
    expect(cell(rows[0], 'share')).toBe('+70.00 pp');
    expect(rows[0]).toHaveAttribute('data-flagged', 'true');
    const cache = rows.find((r) => r.textContent!.includes('RecvMsg'))!;
    expect(cell(cache, 'per-request')).toBe('±0.00 ns/req');
    expect(cache).toHaveAttribute('data-flagged', 'false');
  });

  it('the attribution toggle charges runtime time to the calling code, and says through which frame', () => {
    const t = (art: string) => ({ ...fromAscii(art), unit: 'ns' });
    const diff = diffTrees(
      t(`
total 100
└─ main.handler 100
   ├─ main.render 90
   └─ compress/flate.NewWriter 10
      └─ runtime.memclrNoHeapPointers 5
`),
      t(`
total 300
└─ main.handler 300
   ├─ main.render 90
   └─ compress/flate.NewWriter 210
      └─ runtime.memclrNoHeapPointers 200
`)
    );
    const counts = { baseline: checkCount(10), comparison: checkCount(10) };
    render(<ChangesTable rows={changesByUnit(diff, 'per-request', counts)} unit="per-request" profileUnit="ns" onSelect={jest.fn()} diff={diff} requests={counts} />);
    const first = () => screen.getByTestId(TEST_IDS.changesTable).querySelector('tbody tr')!;
    expect(first()).toHaveTextContent('runtime.memclrNoHeapPointers');
    fireEvent.click(screen.getByTestId(TEST_IDS.attributionToggle));
    expect(screen.getByTestId(TEST_IDS.changesTable)).toHaveAttribute('data-attributed', 'true');
    expect(first().querySelector('td')).toHaveTextContent('compress/flate.NewWriter (via runtime.memclrNoHeapPointers)');
    expect(first().querySelector('[data-col="per-request"]')).toHaveTextContent('+20.00 ns/req');
    fireEvent.click(screen.getByTestId(TEST_IDS.attributionToggle));
    expect(first()).toHaveTextContent('runtime.memclrNoHeapPointers');
  });

  it('without the diff tree there is no toggle', () => {
    render(<ChangesTable rows={changesByUnit(diffTrees(printlnBefore(), printlnAfter()), 'share')} unit="share" profileUnit="short" onSelect={jest.fn()} />);
    expect(screen.queryByTestId(TEST_IDS.attributionToggle)).toBeNull();
  });
});

describe('Tooltip', () => {
  it('shows self, total and share', () => {
    const tree = printlnAfter();
    const println = tree.names.indexOf('fmt.Println');
    render(<Tooltip tree={tree} node={tree.nameId.indexOf(println)} x={0} y={0} />);
    expect(screen.getByTestId(TEST_IDS.tooltip)).toHaveTextContent(/fmt\.Println.*Total300\.00 \(75\.00%\).*Self20\.00 \(5\.00%\)/);
  });

  it('cuts very long names', () => {
    const tree = printlnAfter();
    tree.names[tree.nameId[3]] = '🔥'.repeat(1000);
    expect(tree.names).toContain('🔥'.repeat(1000));
    render(<Tooltip tree={tree} node={3} x={0} y={0} />);
    expect(screen.getByTestId(TEST_IDS.tooltip).textContent!.length).toBeLessThan(600);
  });
});

describe('ErrorView', () => {
  it('shows the title and message as text', () => {
    render(<ErrorView title="Invalid profile" message={'<b>row 3</b>'} />);
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent('<b>row 3</b>');
  });
});

describe('Toolbar', () => {
  const props = {
    search: '',
    regex: false,
    diff: false,
    mode: 'icicle' as const,
    focusPath: [] as string[],
    onSearch: jest.fn(),
    onRegex: jest.fn(),
    onMode: jest.fn(),
    onResetFocus: jest.fn(),
  };

  it('reports typing, the regex toggle and the layout toggle', () => {
    render(<Toolbar {...props} />);
    fireEvent.change(screen.getByTestId(TEST_IDS.search), { target: { value: 'write' } });
    expect(props.onSearch).toHaveBeenCalledWith('write');
    fireEvent.click(screen.getByTestId(TEST_IDS.searchRegex));
    expect(props.onRegex).toHaveBeenCalledWith(true);
    fireEvent.click(screen.getByTestId(TEST_IDS.modeToggle));
    expect(props.onMode).toHaveBeenCalledWith('flame');
    expect(screen.getByTestId(TEST_IDS.resetFocus)).toBeDisabled();
  });

  it('shows the share of both sides of a diff, and the focus path', () => {
    const result = { matches: new Uint8Array(), covered: new Uint8Array(), matchCount: 2, matchedValue: 1, share: 0.25, selfValue: 1, selfShare: 0.1, matchedValueRight: 3, shareRight: 0.5 };
    render(<Toolbar {...props} diff result={result} focusPath={['main.main', 'fmt.Println']} />);
    expect(screen.getByTestId(TEST_IDS.searchShare)).toHaveTextContent('2 frames, 25.00% of samples (baseline) → 50.00% (comparison)');
    expect(screen.getByTestId(TEST_IDS.focusPath)).toHaveTextContent('Focus: main.main › fmt.Println');
    expect(screen.getByTestId(TEST_IDS.resetFocus)).toBeEnabled();
  });
});

describe('FlameGraphCanvas', () => {
  const style = { dark: true, background: '#000', text: '#fff', dimmed: '#333', dimmedText: '#999', font: '12px monospace', diffScheme: 'red-green' as const };

  it('draws once, reports hover and click by node', () => {
    const layout = computeLayout(printlnAfter());
    const onHover = jest.fn();
    const onClick = jest.fn();
    const onDrawn = jest.fn();
    render(
      <FlameGraphCanvas
        layout={layout}
        view={{ focus: 0, width: 1000, height: 200, rowHeight: 20, mode: 'icicle' }}
        style={style}
        hoverColor="#fff"
        onHover={onHover}
        onClick={onClick}
        onDrawn={onDrawn}
      />
    );
    expect(onDrawn).toHaveBeenCalledTimes(1);
    expect(onDrawn.mock.calls[0][0].drawn).toBe(layout.tree.size);
    const overlay = screen.getByTestId(TEST_IDS.overlay);
    fireEvent.mouseMove(overlay, { clientX: 500, clientY: 10 });
    expect(onHover).toHaveBeenLastCalledWith(0, 500, 10);
    fireEvent.click(overlay, { clientX: 500, clientY: 30 });
    expect(onClick).toHaveBeenCalledWith(1);
    fireEvent.mouseLeave(overlay);
    expect(onHover).toHaveBeenLastCalledWith(-1, 0, 0);
    expect(onDrawn).toHaveBeenCalledTimes(1);
  });
});
