// /cat/:id — everything about one cat: photos, details, its shop, and reviews, kept current live.
import { useParams } from 'react-router-dom';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import type { BodegaSummary, CatDetail } from '../../../lib/catalogue.ts';
import { ItemPageState } from '../../../components/ItemPageState.tsx';
import { ItemDetailLayout, ItemQuickActions, useItemPage } from '../../items/index.ts';
import { HiddenBanner, PhotoReportButton, ReportButton, ReviewReportButton } from '../../moderation/index.ts';
import { PhotosSection } from '../../photos/index.ts';
import { ReviewsSection } from '../../reviews/index.ts';
import { BodegaInfoCard } from '../components/BodegaInfoCard.tsx';
import { CatAbout } from '../components/CatAbout.tsx';
import { CatHero } from '../components/CatHero.tsx';
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
  const { photos, saved, canEdit } = useItemPage('cat', cat);
  return (
    <ItemDetailLayout
      sideLabel="About the bodega"
      side={
        <>
          <BodegaInfoCard bodega={bodega} />
          <ItemQuickActions kind="cat" saved={saved}>
            <ReportButton type="cat" id={cat.id} ownerId={cat.created_by} className="button button--ghost" />
          </ItemQuickActions>
        </>
      }
    >
      {cat.hidden && <HiddenBanner noun="cat" />}
      <CatHero cat={cat} primary={photos.primary} saved={saved} canEdit={canEdit} />
      <CatAbout cat={cat} />
      <PhotosSection
        list={photos}
        targetType="cat"
        targetId={cat.id}
        itemName={cat.name}
        creatorId={cat.created_by}
        photoAction={(photo) => <PhotoReportButton photo={photo} />}
      />
      <ReviewsSection
        targetType="cat"
        targetId={cat.id}
        reviewAction={(review) => <ReviewReportButton review={review} />}
      />
    </ItemDetailLayout>
  );
}
