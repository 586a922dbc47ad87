import { fireEvent, render, screen, within } from '@testing-library/react';

import { TEST_IDS } from '../../constants';
import { diffTrees, Tree } from '@hotpath/profile-core';
import { generateTree, printlnAfter, printlnBefore } from '@hotpath/profile-core/testing';

import { CALL_TREE_ROW, CallTree } from './CallTree';
import { FlameGraphExplorer } from '../FlameGraphExplorer/FlameGraphExplorer';

const ns = (t: Tree) => ({ ...t, unit: 'ns' });

function setup(tree: Tree = ns(printlnAfter()), props: Partial<React.ComponentProps<typeof CallTree>> = {}) {
  const onFocus = jest.fn();
  render(<CallTree tree={tree} width={900} height={400} unit="share" onFocus={onFocus} {...props} />);
  const grid = screen.getByRole('treegrid');
  const rows = () => screen.queryAllByTestId(TEST_IDS.callTreeRow);
  const names = () => rows().map((r) => r.querySelector('[role=gridcell]')!.textContent!.replace(/^[▸▾]/, ''));
  const selected = () => rows().find((r) => r.getAttribute('aria-selected') === 'true')!.querySelector('[role=gridcell]')!.textContent!.replace(/^[▸▾]/, '');
  const key = (k: string) => fireEvent.keyDown(grid, { key: k });
  return { onFocus, grid, rows, names, selected, key };
}

describe('CallTree', () => {
  it('an accessible treegrid: levels, expanded state, total/self/per-request columns, heaviest child first', () => {
    const { rows, names } = setup(ns(printlnAfter()), { requests: { left: 100 } });
    // opened three levels deep: total › main.main › main.handler › its children
    expect(names()).toEqual(['total', 'main.main', 'main.handler', 'fmt.Println', 'main.streamFromCache', 'encoding/json.Marshal']);
    const println = rows()[3];
    expect(println).toHaveAttribute('aria-level', '4');
    expect(println).toHaveAttribute('aria-expanded', 'false');
    expect(rows()[2]).toHaveAttribute('aria-expanded', 'true');
    const cells = within(println).getAllByRole('gridcell').map((c) => c.textContent);
    expect(cells).toEqual(['▸fmt.Println', '300.00 ns (75.00%)', '20.00 ns (5.00%)', '3.00 ns/req']);
    expect(screen.getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Function', 'Total', 'Self', 'Per request']);
  });

  it('keyboard: arrows move, open and close; Space toggles; Enter focuses the flame graph', () => {
    const { key, selected, names, onFocus } = setup();
    expect(selected()).toBe('total');
    key('ArrowDown');
    key('ArrowDown');
    key('ArrowDown');
    expect(selected()).toBe('fmt.Println');
    key('ArrowRight'); // opens
    expect(names()).toContain('google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format');
    key('ArrowRight'); // moves into it
    expect(selected()).toBe('google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format');
    key('ArrowLeft'); // a leaf: to its parent
    expect(selected()).toBe('fmt.Println');
    key('ArrowLeft'); // closes
    expect(names()).not.toContain('google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format');
    key(' ');
    expect(names()).toContain('google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format');
    key('End');
    expect(selected()).toBe('encoding/json.Marshal');
    key('Home');
    key('ArrowDown');
    key('Enter');
    expect(onFocus).toHaveBeenCalledWith(1);
  });

  it('expands to a chosen depth', () => {
    const { names } = setup();
    fireEvent.click(screen.getAllByTestId(TEST_IDS.callTreeDepth).find((b) => b.getAttribute('data-depth') === '1')!);
    expect(names()).toEqual(['total', 'main.main']);
    fireEvent.click(screen.getAllByTestId(TEST_IDS.callTreeDepth).find((b) => b.getAttribute('data-depth') === '5')!);
    expect(names()).toHaveLength(8);
  });

  it('a diff: the comparison side and the change in the panel unit', () => {
    setup(diffTrees(ns(printlnBefore()), ns(printlnAfter())));
    expect(screen.getAllByRole('columnheader').map((c) => c.textContent)).toContain('Change');
    const println = screen.getAllByTestId(TEST_IDS.callTreeRow).find((r) => r.textContent!.includes('fmt.Println'))!;
    expect(println).toHaveTextContent('+75.00 pp');
  });

  it('virtualised: a 200k-node tree opened ten levels deep puts only the rows in view into the DOM', () => {
    const big = generateTree(200_000, 7);
    const { rows } = setup(big);
    fireEvent.click(screen.getAllByTestId(TEST_IDS.callTreeDepth).find((b) => b.getAttribute('data-depth') === '10')!);
    const shown = Number(screen.getByTestId(TEST_IDS.callTree).getAttribute('data-rows'));
    expect(screen.getByTestId(TEST_IDS.callTree)).toHaveTextContent(`${shown.toLocaleString('en-US')} rows shown of 200,000 nodes`);
    expect(shown).toBeGreaterThan(1000);
    // 400 px: about 14 rows in view, plus the overscan above and below
    expect(rows().length).toBeLessThanOrEqual(Math.ceil(400 / CALL_TREE_ROW) + 16);
    expect(screen.getByRole('treegrid')).toHaveAttribute('aria-rowcount', String(shown + 1));
  });
});

describe('the explorer\'s panes', () => {
  const panes = (label: string) => fireEvent.click(within(screen.getByTestId(TEST_IDS.panes)).getByLabelText(label));

  it('switches between flame graph, call tree and top table, single or split', async () => {
    render(<FlameGraphExplorer tree={printlnAfter()} width={1002} height={600} />);
    expect(screen.getByTestId(TEST_IDS.canvas)).toBeInTheDocument();
    expect(screen.getByTestId(TEST_IDS.topTable)).toBeInTheDocument();
    expect(screen.queryByTestId(TEST_IDS.callTree)).toBeNull();
    panes('Graph + tree');
    expect(screen.getByTestId(TEST_IDS.canvas)).toBeInTheDocument();
    // the call tree's code loads when its pane is first shown (a chunk of its own)
    expect(await screen.findByTestId(TEST_IDS.callTree)).toBeInTheDocument();
    expect(screen.queryByTestId(TEST_IDS.topTable)).toBeNull();
    panes('Call tree');
    expect(screen.queryByTestId(TEST_IDS.canvas)).toBeNull();
    expect(screen.getByTestId(TEST_IDS.callTree)).toBeInTheDocument();
    panes('Table');
    expect(screen.queryByTestId(TEST_IDS.canvas)).toBeNull();
    expect(screen.getByTestId(TEST_IDS.topTable)).toBeInTheDocument();
  });

  it('the call tree follows the flame graph\'s focus and search; Enter on a row focuses the graph', async () => {
    render(<FlameGraphExplorer tree={printlnAfter()} width={1002} height={600} />);
    panes('Graph + tree');
    await screen.findByTestId(TEST_IDS.callTree);
    const overlay = screen.getByTestId(TEST_IDS.overlay);
    // row 4 (y 80..100) at x=100: google.golang.org/protobuf/...Format under fmt.Println
    fireEvent.click(overlay, { clientX: 100, clientY: 90 });
    const selected = screen.getAllByTestId(TEST_IDS.callTreeRow).find((r) => r.getAttribute('aria-selected') === 'true')!;
    expect(selected).toHaveTextContent('prototext.MarshalOptions.Format');
    fireEvent.change(screen.getByTestId(TEST_IDS.search), { target: { value: 'RecvMsg' } });
    const match = screen.getAllByTestId(TEST_IDS.callTreeRow).find((r) => r.textContent!.includes('RecvMsg'))!;
    expect(match).toHaveAttribute('data-match', 'true');
    expect(screen.getAllByTestId(TEST_IDS.callTreeRow).filter((r) => r.getAttribute('data-match') === 'true')).toHaveLength(1);
    fireEvent.click(match);
    fireEvent.keyDown(screen.getByRole('treegrid'), { key: 'Enter' });
    expect(screen.getByTestId(TEST_IDS.focusPath)).toHaveTextContent('main.main › main.handler › main.streamFromCache › google.golang.org/grpc.(*clientStream).RecvMsg');
  });

  it('in the sandwich the call tree shows the function\'s callers and callees', async () => {
    render(<FlameGraphExplorer tree={printlnAfter()} width={1002} height={700} />);
    const row = [...screen.getByTestId(TEST_IDS.topTable).querySelectorAll('tbody tr')].find((r) => r.textContent!.startsWith('main.handler'))!;
    fireEvent.click(row);
    panes('Call tree');
    fireEvent.click(screen.getByTestId(TEST_IDS.sandwichToggle));
    const trees = await screen.findAllByTestId(TEST_IDS.callTree);
    expect(trees).toHaveLength(2);
    expect(trees[0]).toHaveTextContent('Callers of main.handler');
    expect(within(trees[0]).getAllByTestId(TEST_IDS.callTreeRow).map((r) => r.textContent)).toEqual(expect.arrayContaining([expect.stringContaining('main.main')]));
    expect(trees[1]).toHaveTextContent('fmt.Println');
  });
});
