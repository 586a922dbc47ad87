import { render, screen } from '@testing-library/react';

import { TEST_IDS } from '../../constants';

import { ErrorView } from './ErrorView';

describe('ErrorView', () => {
  it('shows the title and message as text', () => {
    render(<ErrorView title="Invalid profile" message={'<b>row 3</b>'} />);
    expect(screen.getByTestId(TEST_IDS.error)).toHaveTextContent('<b>row 3</b>');
  });
});
