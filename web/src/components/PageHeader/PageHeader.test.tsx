import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import PageHeader from '.';

describe('PageHeader', () => {
  it('shows the title, subtitle, actions and children', () => {
    render(
      <PageHeader title="Operation log" subTitle="What happened" extra={<button>Add</button>}>
        <div>below</div>
      </PageHeader>,
    );
    expect(screen.getByTestId('page-title')).toHaveTextContent('Operation log');
    expect(screen.getByText('What happened')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add' })).toBeInTheDocument();
    expect(screen.getByText('below')).toBeInTheDocument();
  });
});
