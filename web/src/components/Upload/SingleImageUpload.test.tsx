import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { spyFeedback } from '@/test/utils';
import { imageFile, installFakeXhr, uploaded, type FakeXhr } from '@/test/xhr';
import { setFeedback } from '@/utils/feedback';
import { SINGLE_BOX } from './core';
import SingleImageUpload from './SingleImageUpload';

let feedback: ReturnType<typeof spyFeedback>;
let Xhr: typeof FakeXhr;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

beforeEach(() => {
  feedback = spyFeedback();
  Xhr = installFakeXhr();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

function choose(file: File, testId = 'image-upload') {
  const input = screen.getByTestId(`${testId}-input`) as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
  return input;
}

describe('SingleImageUpload checks (SPEC §5)', () => {
  it("rejects a non-image with the SPEC warning and clears the file", async () => {
    render(<SingleImageUpload action="/upload" crop={false} />);
    const input = choose(imageFile('notes.txt', 'text/plain'));
    expect(feedback.warning).toHaveBeenCalledWith('upload file warning: the selected file is not an image');
    expect(input.value).toBe('');
    expect(Xhr.all).toHaveLength(0);
    // the dialog's close and the cleared file are separate updates: under load the second lands later
    await waitFor(() => expect(screen.getByTestId('image-upload')).toHaveAttribute('data-state', 'empty'));
  });

  it('accepts only gif, jpeg and png', async () => {
    render(<SingleImageUpload action="/upload" crop={false} />);
    choose(imageFile('a.webp', 'image/webp'));
    choose(imageFile('a.svg', 'image/svg+xml'));
    expect(feedback.warning).toHaveBeenCalledTimes(2);
    choose(imageFile('a.gif', 'image/gif'));
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
  });

  it('limits the size to 10 MB by default', () => {
    render(<SingleImageUpload action="/upload" crop={false} />);
    choose(imageFile('big.png', 'image/png', 10 * 1024 * 1024 + 1));
    expect(feedback.warning).toHaveBeenCalledWith('upload file size cannot exceed 10MB!');
    expect(Xhr.all).toHaveLength(0);
  });

  it('limits the size to maxSize MB', () => {
    render(<SingleImageUpload action="/upload" crop={false} maxSize={2} />);
    choose(imageFile('big.png', 'image/png', 2 * 1024 * 1024 + 1));
    expect(feedback.warning).toHaveBeenCalledWith('upload file size cannot exceed 2MB!');
  });

  it('is a 148x148 box', () => {
    render(<SingleImageUpload action="/upload" />);
    expect(SINGLE_BOX).toBe(148);
    const box = screen.getByTestId('image-upload').querySelector('.cm-upload-box') as HTMLElement;
    expect(box.style.width).toBe('148px');
    expect(box.style.height).toBe('148px');
  });
});

describe('SingleImageUpload states (SPEC §4)', () => {
  it('ready -> uploading with a percentage -> success with the image and a delete action', async () => {
    const onChange = vi.fn();
    render(<SingleImageUpload action="/media/upload" crop={false} onChange={onChange} data={{ kind: 'cover' }} />);
    choose(imageFile('cover.png'));
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
    const xhr = Xhr.all[0];
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/media/upload');
    expect((xhr.body!.get('file') as File).name).toBe('cover.png');
    expect(xhr.body!.get('kind')).toBe('cover');
    expect(screen.getByTestId('image-upload')).toHaveAttribute('data-state', 'uploading');

    act(() => xhr.progress(40, 100));
    expect(screen.getByTestId('image-upload-progress')).toHaveAttribute('data-percent', '40');

    act(() => xhr.respond(uploaded('/files/cover.png', 'cover.png')));
    await waitFor(() => expect(screen.getByTestId('image-upload')).toHaveAttribute('data-state', 'success'));
    expect(screen.getByTestId('image-upload-img')).toHaveAttribute('src', '/files/cover.png');
    expect(onChange).toHaveBeenCalledWith('/files/cover.png', { fileName: 'cover.png', src: '/files/cover.png' });

    fireEvent.click(screen.getByTestId('image-upload-delete'));
    expect(onChange).toHaveBeenLastCalledWith(undefined);
    expect(screen.getByTestId('image-upload')).toHaveAttribute('data-state', 'empty');
  });

  it("a body code other than 200 is a failure: cleared, 'upload file failed' with the server message", async () => {
    const onChange = vi.fn();
    render(<SingleImageUpload action="/upload" crop={false} onChange={onChange} />);
    choose(imageFile());
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
    act(() => Xhr.all[0].respond({ code: 500, message: 'disk full', data: null }));
    await waitFor(() => expect(feedback.notifyError).toHaveBeenCalledWith('upload file failed', 'disk full'));
    expect(screen.getByTestId('image-upload')).toHaveAttribute('data-state', 'empty');
    expect(onChange).not.toHaveBeenCalled();
  });

  it("a failure without a message says 'unknown error'", async () => {
    render(<SingleImageUpload action="/upload" crop={false} />);
    choose(imageFile());
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
    act(() => Xhr.all[0].fail());
    await waitFor(() => expect(feedback.notifyError).toHaveBeenCalledWith('upload file failed', 'unknown error'));
  });

  it('an HTTP error with a JSON message shows that message', async () => {
    render(<SingleImageUpload action="/upload" crop={false} />);
    choose(imageFile());
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
    act(() => Xhr.all[0].respond({ code: 413, message: 'too big' }, 413));
    await waitFor(() => expect(feedback.notifyError).toHaveBeenCalledWith('upload file failed', 'too big'));
  });

  it('holds one file: a new upload replaces the old image', async () => {
    const onChange = vi.fn();
    const { rerender } = render(<SingleImageUpload action="/upload" crop={false} value="/files/old.png" onChange={onChange} />);
    expect(screen.getByTestId('image-upload-img')).toHaveAttribute('src', '/files/old.png');
    choose(imageFile('new.png'));
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
    act(() => Xhr.all[0].respond(uploaded('/files/new.png', 'new.png')));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('/files/new.png', expect.anything()));
    rerender(<SingleImageUpload action="/upload" crop={false} value="/files/new.png" onChange={onChange} />);
    expect(screen.getAllByRole('img', { hidden: true }).filter((i) => i.tagName === 'IMG')).toHaveLength(1);
    expect(screen.getByTestId('image-upload-img')).toHaveAttribute('src', '/files/new.png');
  });

  it('shows the crop dialog before uploading; cancelling uploads nothing', async () => {
    render(<SingleImageUpload action="/upload" />);
    choose(imageFile('photo.jpg', 'image/jpeg'));
    await screen.findByTestId('crop-dialog', undefined, { timeout: 5000 });
    expect(Xhr.all).toHaveLength(0);
    expect(screen.getByTestId('image-upload')).toHaveAttribute('data-state', 'ready');
    fireEvent.click(screen.getByTestId('crop-cancel'));
    await waitFor(() => expect(screen.queryByTestId('crop-dialog')).not.toBeInTheDocument());
    expect(Xhr.all).toHaveLength(0);
    // the dialog's close and the cleared file are separate updates: under load the second lands later
    await waitFor(() => expect(screen.getByTestId('image-upload')).toHaveAttribute('data-state', 'empty'));
  });

  it('uploads the cropped file after the crop dialog is confirmed', async () => {
    render(<SingleImageUpload action="/upload" />);
    choose(imageFile('photo.jpg', 'image/jpeg'));
    await screen.findByTestId('crop-dialog', undefined, { timeout: 5000 });
    fireEvent.click(screen.getByTestId('crop-ok'));
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
    expect((Xhr.all[0].body!.get('file') as File).type).toBe('image/jpeg');
  });
});
