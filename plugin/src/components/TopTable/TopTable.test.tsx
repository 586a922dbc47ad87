import { fireEvent, render, screen } from '@testing-library/react';

import { TEST_IDS } from '../../constants';
import { changesByUnit, checkCount, diffTrees, topTable } from '@hotpath/profile-core';
import { fromAscii, printlnAfter, printlnBefore, recursive } from '@hotpath/profile-core/testing';

import { ChangesTable } from './ChangesTable';
import { sortRows, TopTable } from './TopTable';

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
