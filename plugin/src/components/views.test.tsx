import { fireEvent, render, screen } from '@testing-library/react';

import { TEST_IDS } from '../constants';
import { biggestChanges, diffTrees, topTable } from '../data/ops';
import { printlnAfter, printlnBefore, recursive } from '../data/testdata/trees';

import { ChangesTable } from './ChangesTable';
import { ErrorView } from './ErrorView';
import { Tooltip } from './Tooltip';
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
    render(<ChangesTable rows={biggestChanges(diffTrees(printlnBefore(), printlnAfter()))} onSelect={onSelect} />);
    const rows = screen.getByTestId(TEST_IDS.changesTable).querySelectorAll('tbody tr');
    expect(rows[0]).toHaveTextContent('+70.00 pp');
    fireEvent.click(rows[0]);
    expect(onSelect).toHaveBeenCalledWith('google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format');
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
