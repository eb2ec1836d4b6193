import { useQuery } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { materialsKeys } from '@/api/materials';
import i18n from '@/i18n';
import { renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import type { NameRequest } from './NameModal';
import RenameDeleteActions from './RenameDeleteActions';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});
afterEach(() => setFeedback(null));

/** A read under the area's key, as the library's table is: each write that succeeds reads it again. */
function Probe({ read }: { read: () => Promise<number> }) {
  useQuery({ queryKey: [...materialsKeys.all, 'probe'], queryFn: read });
  return null;
}

describe('RenameDeleteActions', { timeout: 30_000 }, () => {
  it('renames through the page dialog, deletes after confirming, and keeps the list when a delete fails', async () => {
    const feedback = spyFeedback();
    const askName = vi.fn<(r: NameRequest) => void>();
    const rename = vi.fn(async () => undefined);
    const remove = vi.fn(async (id: number) => {
      if (id === 8) throw new Error('in use');
    });
    // the list's read: once on show, then once more after each write that succeeded
    const read = vi.fn(async () => 1);
    renderPage(
      <>
        <Probe read={read} />
        <RenameDeleteActions prefix="music" row={{ id: 7, name: 'Song' }} askName={askName} rename={rename} remove={remove}>
          <span data-testid="extra">extra</span>
        </RenameDeleteActions>
        <RenameDeleteActions prefix="music" row={{ id: 8, name: 'Used' }} askName={askName} rename={rename} remove={remove} />
      </>,
      { route: '/music' },
    );
    expect(screen.getByTestId('extra')).toBeInTheDocument();
    await waitFor(() => expect(read).toHaveBeenCalledTimes(1));

    fireEvent.click(screen.getByTestId('music-rename-7'));
    const request = askName.mock.calls[0][0];
    expect(request).toMatchObject({ title: 'Rename', name: 'Song', max: 120 });
    await request.submit('Song 2');
    expect(rename).toHaveBeenCalledWith(7, 'Song 2');
    expect(feedback.success).toHaveBeenCalledWith('Renamed');
    await waitFor(() => expect(read).toHaveBeenCalledTimes(2));

    fireEvent.click(screen.getByTestId('music-delete-7'));
    fireEvent.click(await screen.findByTestId('music-delete-ok-7'));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(7));
    await waitFor(() => expect(read).toHaveBeenCalledTimes(3));

    fireEvent.click(screen.getByTestId('music-delete-8'));
    fireEvent.click(await screen.findByTestId('music-delete-ok-8'));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(8));
    await new Promise((r) => setTimeout(r, 50));
    expect(read).toHaveBeenCalledTimes(3);
  });
});
