// /bodega/:id/edit — only the bodega's creator may edit or delete it (and its cats).
import { ItemEditPage } from '../../item-edit/index.ts';
import { getBodega } from '../api/get-bodega.ts';
import { BodegaEditForm } from '../components/BodegaEditForm.tsx';
import '../../../components/edit-form.css';

export default function BodegaEditPage() {
  return (
    <ItemEditPage kind="bodega" fetchItem={getBodega} itemOf={(data) => data.bodega}>
      {({ bodega }, reload) => <BodegaEditForm bodega={bodega} onStale={reload} />}
    </ItemEditPage>
  );
}
