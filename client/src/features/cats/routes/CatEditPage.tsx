// /cat/:id/edit — only the cat's creator may edit or delete it.
import { ItemEditPage } from '../../item-edit/index.ts';
import { getCat } from '../api/get-cat.ts';
import { CatEditForm } from '../components/CatEditForm.tsx';
import '../../../components/edit-form.css';

export default function CatEditPage() {
  return (
    <ItemEditPage kind="cat" fetchItem={getCat} itemOf={(data) => data.cat}>
      {({ cat, bodega }, reload) => <CatEditForm cat={cat} bodega={bodega} onStale={reload} />}
    </ItemEditPage>
  );
}
