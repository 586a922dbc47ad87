import { fireEvent, render, screen } from '@testing-library/react';

import { TEST_IDS } from '../../constants';
import { printlnAfter } from '@hotpath/profile-core/testing';

import { computeLayout } from '../../render/layout';

import { FlameGraphCanvas } from './FlameGraphCanvas';
import { Tooltip } from './Tooltip';

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
