import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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

describe('RenameDeleteActions', { timeout: 30_000 }, () => {
  it('renames through the page dialog, deletes after confirming, and keeps the list when a delete fails', async () => {
    const feedback = spyFeedback();
    const askName = vi.fn<(r: NameRequest) => void>();
    const rename = vi.fn(async () => undefined);
    const remove = vi.fn(async (id: number) => {
      if (id === 8) throw new Error('in use');
    });
    const refresh = vi.fn();
    renderPage(
      <>
        <RenameDeleteActions prefix="music" row={{ id: 7, name: 'Song' }} askName={askName} rename={rename} remove={remove} refresh={refresh}>
          <span data-testid="extra">extra</span>
        </RenameDeleteActions>
        <RenameDeleteActions prefix="music" row={{ id: 8, name: 'Used' }} askName={askName} rename={rename} remove={remove} refresh={refresh} />
      </>,
      { route: '/music' },
    );
    expect(screen.getByTestId('extra')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('music-rename-7'));
    const request = askName.mock.calls[0][0];
    expect(request).toMatchObject({ title: 'Rename', name: 'Song', max: 120 });
    await request.submit('Song 2');
    expect(rename).toHaveBeenCalledWith(7, 'Song 2');
    expect(feedback.success).toHaveBeenCalledWith('Renamed');
    expect(refresh).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByTestId('music-delete-7'));
    fireEvent.click(await screen.findByTestId('music-delete-ok-7'));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(7));
    await waitFor(() => expect(refresh).toHaveBeenCalledTimes(2));

    fireEvent.click(screen.getByTestId('music-delete-8'));
    fireEvent.click(await screen.findByTestId('music-delete-ok-8'));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(8));
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});
