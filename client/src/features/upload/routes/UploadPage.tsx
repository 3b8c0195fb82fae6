// /upload — add a cat or a bodega to the directory.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { SignedInOnly } from '../../auth/index.ts';
import { Tabs } from '../../../components/Tabs.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { BodegaUploadForm } from '../components/BodegaUploadForm.tsx';
import { CatUploadForm } from '../components/CatUploadForm.tsx';
import '../../../components/edit-form.css';
import '../upload.css';

type UploadKind = 'cat' | 'bodega';
type Added = { kind: UploadKind; id: number; name: string };

export default function UploadPage() {
  useDocumentTitle('Upload');
  return (
    <SignedInOnly icon="upload" title="Upload" message="Please log in to add cats and bodegas.">
      <UploadForms />
    </SignedInOnly>
  );
}

function UploadForms() {
  const [tab, setTab] = useState<UploadKind>('cat');
  const [added, setAdded] = useState<Added | null>(null);

  return (
    <div className="page upload">
      <section className="card upload__card" aria-labelledby="upload-title">
        <h1 id="upload-title" className="upload__title">
          Share a Bodega Cat
        </h1>
        <p className="item-form__legend-note">Fields marked * are required.</p>
        <Tabs<UploadKind>
          label="What to add"
          tabs={[
            { key: 'cat', label: 'Upload Cat' },
            { key: 'bodega', label: 'Upload Bodega' },
          ]}
          selected={tab}
          onSelect={(key) => {
            setTab(key);
            setAdded(null);
          }}
        >
          {added && (
            <p className="upload__added" role="status">
              {added.name} was added.{' '}
              <Link to={`/${added.kind}/${added.id}`}>View {added.kind === 'cat' ? 'cat' : 'bodega'}</Link>
            </p>
          )}
          {tab === 'cat' ? (
            <CatUploadForm onAdded={(cat) => setAdded({ kind: 'cat', id: cat.id, name: cat.name })} />
          ) : (
            <BodegaUploadForm onAdded={(b) => setAdded({ kind: 'bodega', id: b.id, name: b.name })} />
          )}
        </Tabs>
      </section>
    </div>
  );
}
