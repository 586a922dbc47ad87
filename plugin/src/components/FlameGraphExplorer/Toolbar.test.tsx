import { fireEvent, render, screen } from '@testing-library/react';

import { TEST_IDS } from '../../constants';

import { Toolbar } from './Toolbar';

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
