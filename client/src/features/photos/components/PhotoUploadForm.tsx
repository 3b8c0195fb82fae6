// Adds a photo to a cat or shop. The file's type and size are checked here first, so a wrong file
// is refused at once with the same message the server would give.
import '../photos.css';
import { useId, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { ToolIcon } from '../../../components/ToolIcon.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { TEXT_LIMITS, type Photo, type TargetType } from '../../../lib/catalogue.ts';
import { limitedChange } from '../../../lib/text-input.ts';
import { useUploadPhotoMutation } from '../api/upload-photo.ts';
import { PHOTO_ACCEPT, photoFileProblem } from '../validation.ts';

type PhotoUploadFormProps = {
  targetType: TargetType;
  targetId: number;
  /** Told once the photo is uploaded (the mutation has added it to the cached page already). */
  onUploaded?(photo: Photo): void;
};

export function PhotoUploadForm({ targetType, targetId, onUploaded }: PhotoUploadFormProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [caption, setCaption] = useState('');
  const upload = useUploadPhotoMutation();
  const busy = upload.isPending;

  function clearFile() {
    setFile(null);
    if (input.current) input.current.value = '';
  }

  function choose(chosen: File | undefined) {
    if (!chosen) return clearFile();
    const problem = photoFileProblem(chosen);
    if (problem) {
      toast.error(problem);
      return clearFile();
    }
    setFile(chosen);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file || busy) return;
    try {
      const photo = await upload.mutateAsync({ type: targetType, targetId, upload: { file, caption } });
      toast.success('Photo uploaded successfully!');
      onUploaded?.(photo);
      clearFile();
      setCaption('');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to upload photo'));
    }
  }

  return (
    <form className="photo-upload" onSubmit={(e) => void submit(e)} aria-busy={busy}>
      <h3 className="photo-upload__title">Add a photo</h3>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-file`}>
          Photo
        </label>
        <input
          ref={input}
          id={`${id}-file`}
          className="photo-upload__file"
          type="file"
          name="photo"
          accept={PHOTO_ACCEPT}
          onChange={(e) => choose(e.target.files?.[0])}
          disabled={busy}
          aria-describedby={`${id}-hint`}
        />
        <span id={`${id}-hint`} className="field__hint">
          JPEG, PNG, GIF or WebP, up to 5 MB.
        </span>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-caption`}>
          Caption (optional)
        </label>
        <input
          id={`${id}-caption`}
          className="input"
          name="caption"
          value={caption}
          onChange={limitedChange(TEXT_LIMITS.caption, setCaption)}
          disabled={busy}
        />
      </div>
      <button type="submit" className="button button--primary" disabled={!file || busy}>
        <ToolIcon name="image" />
        {busy ? 'Uploading...' : 'Upload Photo'}
      </button>
    </form>
  );
}
