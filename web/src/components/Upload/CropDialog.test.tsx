import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { imageFile } from '@/test/xhr';
import CropDialog, { cropFile } from './CropDialog';

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
});
afterEach(() => vi.unstubAllGlobals());

describe('CropDialog', () => {
  it('opens for a file and hands back a file on confirm', async () => {
    const onConfirm = vi.fn();
    const file = imageFile('p.png');
    render(<CropDialog file={file} onCancel={() => undefined} onConfirm={onConfirm} />);
    expect(await screen.findByText('Crop image')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('crop-ok'));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    expect((onConfirm.mock.calls[0][0] as File).name).toBe('p.png');
  });

  it('cancel calls onCancel', async () => {
    const onCancel = vi.fn();
    render(<CropDialog file={imageFile()} onCancel={onCancel} onConfirm={() => undefined} />);
    fireEvent.click(await screen.findByTestId('crop-cancel'));
    expect(onCancel).toHaveBeenCalled();
  });

  it('keeps the original file when there is no area or no canvas', async () => {
    const file = imageFile();
    expect(await cropFile(file, 'blob:x', null)).toBe(file);
    expect(await cropFile(file, 'blob:x', { x: 0, y: 0, width: 0, height: 10 })).toBe(file);
  });
});
