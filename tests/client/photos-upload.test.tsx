import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast/headless';
import { Toaster } from '../../client/src/components/Toaster.tsx';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PhotoUploadForm } from '../../client/src/features/photos/components/PhotoUploadForm.tsx';
import {
  INVALID_PHOTO_TYPE,
  MAX_PHOTO_BYTES,
  PHOTO_TOO_LARGE,
  photoFileProblem,
} from '../../client/src/features/photos/validation.ts';
import { scriptedFetch } from './helpers.ts';
import { QueryProvider } from './query.tsx';

const fileOf = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });

const processing = {
  id: 5,
  filename: 'abc',
  caption: 'On the counter',
  is_primary: true,
  status: 'processing',
  url: null,
  thumb_url: null,
  width: null,
  height: null,
  uploaded_by: 1,
  created_at: '2026-11-21T20:00:00.000Z',
};

afterEach(() => {
  cleanup();
  act(() => toast.remove());
  vi.unstubAllGlobals();
});

describe('the photo checks made before sending', () => {
  it('accepts JPEG, JPG, PNG, GIF and WebP', () => {
    for (const type of ['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'image/webp']) {
      expect(photoFileProblem(fileOf('cat', type))).toBeNull();
    }
  });

  it('refuses other types with the spec message', () => {
    expect(INVALID_PHOTO_TYPE).toBe('Invalid file type. Please upload a JPEG, PNG, GIF, or WebP image.');
    for (const [name, type] of [
      ['notes.txt', 'text/plain'],
      ['cat.heic', 'image/heic'],
      ['cat.svg', 'image/svg+xml'],
      ['cat.jpg', 'application/pdf'],
    ]) {
      expect(photoFileProblem(fileOf(name!, type!))).toBe(INVALID_PHOTO_TYPE);
    }
  });

  it('judges a file without a type by its extension', () => {
    expect(photoFileProblem(fileOf('cat.JPG', ''))).toBeNull();
    expect(photoFileProblem(fileOf('cat.webp', ''))).toBeNull();
    expect(photoFileProblem(fileOf('cat', ''))).toBe(INVALID_PHOTO_TYPE);
    expect(photoFileProblem(fileOf('cat.bmp', ''))).toBe(INVALID_PHOTO_TYPE);
  });

  it('allows exactly 5 MB and refuses one byte more with the spec message', () => {
    expect(MAX_PHOTO_BYTES).toBe(5242880);
    expect(PHOTO_TOO_LARGE).toBe('File too large. Please upload an image smaller than 5MB.');
    expect(photoFileProblem(fileOf('cat.png', 'image/png', 5242880))).toBeNull();
    expect(photoFileProblem(fileOf('cat.png', 'image/png', 5242881))).toBe(PHOTO_TOO_LARGE);
  });
});

function renderForm() {
  const onUploaded = vi.fn();
  render(
    <QueryProvider>
      <PhotoUploadForm targetType="cat" targetId={3} onUploaded={onUploaded} />
      <Toaster />
    </QueryProvider>,
  );
  const input = screen.getByLabelText('Photo') as HTMLInputElement;
  const submit = () => screen.getByRole('button', { name: /Upload Photo|Uploading/ }) as HTMLButtonElement;
  return { onUploaded, input, submit };
}

function choose(input: HTMLInputElement, file: File) {
  fireEvent.change(input, { target: { files: [file] } });
}

describe('the photo upload form', () => {
  it('refuses a wrong type at once and sends nothing', async () => {
    const { sent } = scriptedFetch(() => ({ status: 201, body: { photo: processing } }));
    const { input, submit } = renderForm();
    choose(input, fileOf('notes.txt', 'text/plain'));
    expect(await screen.findByText(INVALID_PHOTO_TYPE)).toBeTruthy();
    expect(submit().disabled).toBe(true);
    fireEvent.submit(submit().form!);
    expect(sent).toHaveLength(0);
  });

  it('refuses a file over 5 MB at once and sends nothing', async () => {
    const { sent } = scriptedFetch(() => ({ status: 201, body: { photo: processing } }));
    const { input, submit } = renderForm();
    choose(input, fileOf('big.jpg', 'image/jpeg', MAX_PHOTO_BYTES + 1));
    expect(await screen.findByText(PHOTO_TOO_LARGE)).toBeTruthy();
    expect(submit().disabled).toBe(true);
    expect(sent).toHaveLength(0);
  });

  it('sends a good photo with its caption as multipart, shows the busy state, then resets', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { sent, fetchMock } = scriptedFetch(() => ({ status: 201, body: { photo: processing } }));
    const reply = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (...args) => {
      await gate;
      return reply(...args);
    });
    const { input, submit, onUploaded } = renderForm();
    const photo = fileOf('whiskers.png', 'image/png', 2048);
    choose(input, photo);
    fireEvent.change(screen.getByLabelText('Caption (optional)'), { target: { value: 'On the counter' } });
    expect(submit().disabled).toBe(false);
    fireEvent.click(submit());

    const busy = await screen.findByRole('button', { name: 'Uploading...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    release();

    expect(await screen.findByText('Photo uploaded successfully!')).toBeTruthy();
    expect(sent[0]?.url).toBe('/api/photos/cats/3/photos');
    expect(sent[0]?.method).toBe('POST');
    const form = sent[0]?.body as FormData;
    expect(form.get('caption')).toBe('On the counter');
    expect((form.get('photo') as File).name).toBe('whiskers.png');
    expect(onUploaded).toHaveBeenCalledWith(processing);
    expect((screen.getByLabelText('Caption (optional)') as HTMLInputElement).value).toBe('');
    expect(submit().disabled).toBe(true);
  });

  it("shows the server's refusal, e.g. bytes that are not an image", async () => {
    scriptedFetch(() => ({
      status: 415,
      body: { error: INVALID_PHOTO_TYPE, code: 'unsupported_media_type' },
    }));
    const { input, submit, onUploaded } = renderForm();
    choose(input, fileOf('renamed.jpg', 'image/jpeg'));
    fireEvent.click(submit());
    expect(await screen.findByText(INVALID_PHOTO_TYPE)).toBeTruthy();
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it("falls back to 'Failed to upload photo'", async () => {
    scriptedFetch(() => ({ status: 500 }));
    const { input, submit } = renderForm();
    choose(input, fileOf('cat.gif', 'image/gif'));
    fireEvent.click(submit());
    expect(await screen.findByText('Failed to upload photo')).toBeTruthy();
  });
});
