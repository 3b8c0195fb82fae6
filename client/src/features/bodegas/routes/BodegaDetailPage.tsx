// /bodega/:id — one shop: details, contact, photos, its cats and reviews, kept current live.
import { useParams } from 'react-router-dom';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import type { BodegaDetail, CatSummary } from '../../../lib/catalogue.ts';
import { ItemPageState } from '../../../components/ItemPageState.tsx';
import { ItemDetailLayout, ItemQuickActions, useItemPage } from '../../items/index.ts';
import { HiddenBanner, PhotoReportButton, ReportButton, ReviewReportButton } from '../../moderation/index.ts';
import { PhotosSection } from '../../photos/index.ts';
import { ReviewsSection } from '../../reviews/index.ts';
import { BodegaCats } from '../components/BodegaCats.tsx';
import { BodegaHero } from '../components/BodegaHero.tsx';
import { ContactCard } from '../components/ContactCard.tsx';
import { LocationCard } from '../components/LocationCard.tsx';
import { useBodegaDetail } from '../hooks/use-bodega-detail.ts';
import '../../../components/detail-page.css';
import '../bodegas.css';

export default function BodegaDetailPage() {
  const id = Number(useParams().id);
  const detail = useBodegaDetail(id);
  useDocumentTitle(detail.status === 'ready' ? detail.bodega.name : null);
  if (detail.status !== 'ready')
    return <ItemPageState kind="bodega" status={detail.status} onRetry={detail.reload} />;
  return <BodegaPage bodega={detail.bodega} cats={detail.cats} />;
}

function BodegaPage({ bodega, cats }: { bodega: BodegaDetail; cats: CatSummary[] }) {
  const { photos, saved, canEdit } = useItemPage('bodega', bodega);
  return (
    <ItemDetailLayout
      sideLabel="Contact and location"
      side={
        <>
          <ContactCard bodega={bodega} />
          <LocationCard bodega={bodega} />
          <ItemQuickActions kind="bodega" saved={saved}>
            <ReportButton
              type="bodega"
              id={bodega.id}
              ownerId={bodega.created_by}
              className="button button--ghost"
            />
          </ItemQuickActions>
        </>
      }
    >
      {bodega.hidden && <HiddenBanner noun="bodega" />}
      <BodegaHero bodega={bodega} primary={photos.primary} saved={saved} canEdit={canEdit} />
      <PhotosSection
        list={photos}
        targetType="bodega"
        targetId={bodega.id}
        itemName={bodega.name}
        creatorId={bodega.created_by}
        photoAction={(photo) => <PhotoReportButton photo={photo} />}
      />
      <BodegaCats cats={cats} />
      <ReviewsSection
        targetType="bodega"
        targetId={bodega.id}
        reviewAction={(review) => <ReviewReportButton review={review} />}
      />
    </ItemDetailLayout>
  );
}
