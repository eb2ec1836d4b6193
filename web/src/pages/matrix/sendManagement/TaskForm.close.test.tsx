import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import TaskForm from './TaskForm';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});

let feedback: ReturnType<typeof spyFeedback>;
beforeEach(() => {
  feedback = spyFeedback();
  mockFetch((url) => {
    const path = url.pathname.replace('/api', '');
    if (path.endsWith('/getAccountGroup'))
      return ok({ rows: [{ id: 5, name: 'East', accounts: [{ id: 1, platform: 'dy', nickname: 'acc-1', avatar: null, status: 'active', expires_at: Date.UTC(2030, 0, 1) }] }] });
    if (path.endsWith('/forward_video')) return ok({ rows: [], total: 0 });
    return ok({ rows: [] });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const esc = () => fireEvent.keyDown(document.querySelector('.ant-drawer') as HTMLElement, { key: 'Escape', keyCode: 27 });

describe('closing the release wizard', { timeout: 60_000 }, () => {
  it('an untouched wizard closes at once', async () => {
    const onClose = vi.fn();
    renderPage(<TaskForm open onClose={onClose} onCreated={() => undefined} />, { route: '/send_management' });
    await screen.findByTestId('task-name');
    fireEvent.click(screen.getByTestId('task-cancel'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(feedback.confirm).not.toHaveBeenCalled();
  });

  it('Esc or Cancel on a filled wizard asks before throwing it away', async () => {
    const onClose = vi.fn();
    renderPage(<TaskForm open onClose={onClose} onCreated={() => undefined} />, { route: '/send_management' });
    fireEvent.change(await screen.findByTestId('task-name'), { target: { value: 'Sun hats' } });
    esc();
    fireEvent.click(screen.getByTestId('task-cancel'));
    expect(onClose).not.toHaveBeenCalled();
    expect(feedback.confirm).toHaveBeenCalledTimes(1);
    expect(feedback.confirm).toHaveBeenCalledWith(expect.objectContaining({ title: 'Discard your changes?', okText: 'Discard', cancelText: 'Keep editing' }));
    feedback.confirm.mock.calls[0][0].onCancel();
    expect(screen.getByTestId('task-name')).toHaveValue('Sun hats');
    fireEvent.click(screen.getByTestId('task-cancel'));
    expect(feedback.confirm).toHaveBeenCalledTimes(2);
    feedback.confirm.mock.calls[1][0].onOk();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("step 2 does not say 'Select at least one video' before the merchant tried to go on", async () => {
    renderPage(<TaskForm open onClose={() => undefined} onCreated={() => undefined} />, { route: '/send_management' });
    fireEvent.change(await screen.findByTestId('task-name'), { target: { value: 'Sun hats' } });
    fireEvent.click(await screen.findByTestId('account-check-1'));
    fireEvent.click(screen.getByTestId('step-next'));
    await waitFor(() => expect(screen.getByTestId('task-step-1')).toHaveStyle({ display: 'block' }));
    // let the delayed dependency validation run
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByText('Select at least one video')).toBeNull();
    fireEvent.click(screen.getByTestId('step-next'));
    expect(await screen.findByText('Select at least one video')).toBeInTheDocument();
  });
});
