// What both street-scale maps lay over their canvas: "Search this area" once the map has moved,
// the count in view (or why there is none), an open item's card at its point, and the legend.
import { resultCount } from '../../model/results.ts';
import type { SearchState } from '../../model/search-state.ts';
import { InfoCard } from './InfoCard.tsx';
import { MapLegend } from './MapLegend.tsx';
import type { useClusterMap } from './use-cluster-map.ts';
import './cluster-map.css';

type Props = {
  tab: SearchState['tab'];
  clusters: ReturnType<typeof useClusterMap>;
  /** The open card's point in the map's pixels, while the map can tell. */
  cardAt: { x: number; y: number } | null;
  width: number;
  showUser: boolean;
};

function inViewNoun(tab: SearchState['tab'], count: number): string {
  const noun = tab === 'cats' ? 'cat' : 'bodega';
  return count === 1 ? noun : `${noun}s`;
}

export function ClusterMapChrome({ tab, clusters, cardAt, width, showUser }: Props) {
  const { view, failed, offerArea, searchArea, open } = clusters;
  return (
    <>
      {offerArea && (
        <button
          type="button"
          className="button button--primary button--small cluster-map__search-area"
          onClick={searchArea}
        >
          Search this area
        </button>
      )}
      <p className="cluster-map__status" role="status">
        {failed
          ? 'The map could not load its counts. Move the map to try again.'
          : view
            ? `${resultCount(view.answer.total, true)} ${inViewNoun(tab, view.answer.total)} in view`
            : ''}
      </p>
      {open?.location && cardAt && (
        <InfoCard
          location={open.location}
          x={cardAt.x}
          y={cardAt.y}
          containerWidth={width}
          onMouseEnter={() => {}}
          onMouseLeave={() => {}}
        />
      )}
      <MapLegend showUser={showUser} />
    </>
  );
}
