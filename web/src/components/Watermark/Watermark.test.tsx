import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WATERMARK_TILE } from '@/config';
import Watermark from '.';

describe('Watermark (SPEC §9: 150x150 tile)', () => {
  it('overlays the text in 150x150 tiles without catching clicks', () => {
    render(
      <Watermark text="demo">
        <button>under</button>
      </Watermark>,
    );
    expect(WATERMARK_TILE).toBe(150);
    const layer = screen.getByTestId('watermark');
    expect(layer).toHaveAttribute('data-text', 'demo');
    expect(layer.style.backgroundSize).toBe('150px 150px');
    expect(layer.style.pointerEvents).toBe('none');
    expect(screen.getByRole('button', { name: 'under' })).toBeInTheDocument();
  });

  it('draws nothing when disabled or without text', () => {
    const { rerender } = render(<Watermark text="demo" enabled={false} />);
    expect(screen.queryByTestId('watermark')).not.toBeInTheDocument();
    rerender(<Watermark text="" />);
    expect(screen.queryByTestId('watermark')).not.toBeInTheDocument();
  });
});
