// /cat/:id — everything about one cat: photos, details, its shop, and reviews, kept current live.
import { useParams } from 'react-router-dom';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import type { BodegaSummary, CatDetail } from '../../../lib/catalogue.ts';
import { ItemDetailLayout } from '../../items/components/ItemDetailLayout.tsx';
import { ItemPageState } from '../../items/components/ItemPageState.tsx';
import { useItemPage } from '../../items/hooks/use-item-page.ts';
import { PhotosSection } from '../../photos/components/PhotosSection.tsx';
import { ReviewsSection } from '../../reviews/components/ReviewsSection.tsx';
import { setCatSaved } from '../api/save-cat.ts';
import { BodegaInfoCard } from '../components/BodegaInfoCard.tsx';
import { CatAbout } from '../components/CatAbout.tsx';
import { CatHero } from '../components/CatHero.tsx';
import { ItemQuickActions } from '../../items/components/ItemQuickActions.tsx';
import { useCatDetail } from '../hooks/use-cat-detail.ts';
import '../../../components/detail-page.css';

export default function CatDetailPage() {
  const id = Number(useParams().id);
  const detail = useCatDetail(id);
  useDocumentTitle(detail.status === 'ready' ? detail.cat.name : null);
  if (detail.status !== 'ready')
    return <ItemPageState kind="cat" status={detail.status} onRetry={detail.reload} />;
  return <CatPage cat={detail.cat} bodega={detail.bodega} />;
}

function CatPage({ cat, bodega }: { cat: CatDetail; bodega: BodegaSummary }) {
  const { photos, saved, canEdit } = useItemPage('cat', cat, setCatSaved);
  return (
    <ItemDetailLayout
      sideLabel="About the bodega"
      side={
        <>
          <BodegaInfoCard bodega={bodega} />
          <ItemQuickActions kind="cat" saved={saved} />
        </>
      }
    >
      <CatHero cat={cat} primary={photos.primary} saved={saved} canEdit={canEdit} />
      <CatAbout cat={cat} />
      <PhotosSection
        list={photos}
        targetType="cat"
        targetId={cat.id}
        itemName={cat.name}
        creatorId={cat.created_by}
      />
      <ReviewsSection targetType="cat" targetId={cat.id} />
    </ItemDetailLayout>
  );
}
