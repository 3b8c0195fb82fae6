// The street map for placing a shop (upload and edit forms): a click on the map or a dragged pin sets the
// position, and "Use the map's centre" does it from the keyboard (arrow keys pan, plus and minus
// zoom). Loaded on demand with maplibre-gl, like the search screen's street map.
import maplibregl from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import { useEffect, useRef, useState } from 'react';
import type { Coordinates } from '../lib/coordinates.ts';
import { openStreetMap } from '../lib/street-map.ts';

/** Midtown Manhattan, close enough to show streets. */
const START: Coordinates = { lat: 40.7549, lng: -73.984 };
const START_ZOOM = 12;
const PLACED_ZOOM = 16;

type LocationPickerProps = {
  styleUrl: string;
  value: Coordinates | null;
  onPick(coords: Coordinates): void;
  onFail(): void;
};

export default function LocationPicker({ styleUrl, value, onPick, onFail }: LocationPickerProps) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<maplibregl.Map | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const created = openStreetMap({
      container: element,
      style: styleUrl,
      center: value ? [value.lng, value.lat] : [START.lng, START.lat],
      zoom: value ? PLACED_ZOOM : START_ZOOM,
      title:
        "Map to place the shop. Click it or drag the pin; arrow keys pan, plus and minus zoom, then use the map's centre.",
      onStyled: setMap,
      onFail,
    });
    if (!created) return;
    created.on('click', (event) => pick.current({ lat: event.lngLat.lat, lng: event.lngLat.lng }));
    return () => created.remove();
    // The map is made once; the pin follows `value` below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const pin = useRef<maplibregl.Marker | null>(null);
  useEffect(() => {
    if (!map) return;
    if (!value) {
      pin.current?.remove();
      pin.current = null;
      return;
    }
    if (!pin.current) {
      const marker = new maplibregl.Marker({ draggable: true, color: '#e53935' });
      marker.getElement().setAttribute('aria-label', 'Shop position');
      marker.on('dragend', () => {
        const { lat, lng } = marker.getLngLat();
        pick.current({ lat, lng });
      });
      pin.current = marker.setLngLat([value.lng, value.lat]).addTo(map);
    } else pin.current.setLngLat([value.lng, value.lat]);
    if (!map.getBounds().contains([value.lng, value.lat])) map.easeTo({ center: [value.lng, value.lat] });
  }, [map, value]);

  return (
    <div className="location-picker">
      <div ref={container} className="location-picker__map" />
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={!map}
        onClick={() => {
          if (!map) return;
          const { lat, lng } = map.getCenter();
          pick.current({ lat, lng });
        }}
      >
        Use the map's centre
      </button>
    </div>
  );
}
