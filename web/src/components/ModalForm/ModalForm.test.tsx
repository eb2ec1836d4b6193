import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import ModalForm, { FullscreenModal } from '.';

let feedback: ReturnType<typeof spyFeedback>;
beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  feedback = spyFeedback();
});
afterEach(() => setFeedback(null));

const wrap = () => document.querySelector('[data-testid="dialog-wrap"]') as HTMLElement;

describe('dialog with a fullscreen toggle (SPEC §4 Dialog)', () => {
  it('toggles fullscreen and is back to normal on every open', async () => {
    const { rerender } = render(
      <FullscreenModal open title="Preview" width={500}>
        body
      </FullscreenModal>,
    );
    expect(await screen.findByText('body')).toBeInTheDocument();
    expect(wrap()).toHaveAttribute('data-fullscreen', 'false');
    fireEvent.click(screen.getByTestId('dialog-fullscreen'));
    expect(wrap()).toHaveAttribute('data-fullscreen', 'true');
    expect((document.querySelector('.ant-modal') as HTMLElement).style.width).toBe('100%');

    rerender(
      <FullscreenModal open={false} title="Preview" width={500}>
        body
      </FullscreenModal>,
    );
    rerender(
      <FullscreenModal open title="Preview" width={500}>
        body
      </FullscreenModal>,
    );
    await waitFor(() => expect(wrap()).toHaveAttribute('data-fullscreen', 'false'));
    expect((document.querySelector('.ant-modal') as HTMLElement).style.width).toBe('500px');
  });

  it("ModalForm is built on it and warns 'Form verification failed, please check input!'", async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(
      <ModalForm open title="Edit" onCancel={() => undefined} onSubmit={onSubmit} testId="m">
        <Form.Item name="name" rules={[{ required: true, message: 'required!' }]}>
          <Input data-testid="m-name" />
        </Form.Item>
      </ModalForm>,
    );
    expect(await screen.findByTestId('m-fullscreen')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('m-ok'));
    await waitFor(() => expect(feedback.warning).toHaveBeenCalledWith('Form verification failed, please check input!'));
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('m-name'), { target: { value: 'x' } });
    fireEvent.click(screen.getByTestId('m-ok'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'x' }));
  });
});
