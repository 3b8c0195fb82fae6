// The Google map of the search screen (loaded only when the deployment has a maps key).
/// <reference types="google.maps" />
import { useEffect, useRef, useState } from 'react';
import { GoogleMap, InfoWindowF, MarkerF, StandaloneSearchBox } from '@react-google-maps/api';
import { InfoWindowContent } from './InfoCard.tsx';
import { MapLegend } from './MapLegend.tsx';
import { DEFAULT_CENTER, DEFAULT_ZOOM, PLACE_ZOOM, type MapLocation, type MapViewProps } from './types.ts';
import './google-map-view.css';

const MARKER_COLOURS = { cat: '#e53935', bodega: '#00acc1', you: '#1e88e5' } as const;

// Points of interest and transit labels would compete with the cats.
const MAP_STYLES: google.maps.MapTypeStyle[] = [
  { featureType: 'poi', elementType: 'labels', stylers: [{ visibility: 'off' }] },
  { featureType: 'transit', elementType: 'labels', stylers: [{ visibility: 'off' }] },
];

const MAP_OPTIONS: google.maps.MapOptions = {
  styles: MAP_STYLES,
  clickableIcons: false,
  streetViewControl: false,
  mapTypeControl: false,
  fullscreenControl: true,
};

const CONTAINER_STYLE = { width: '100%', height: '500px' };

function circleIcon(colour: string, scale: number): google.maps.Symbol {
  return {
    path: google.maps.SymbolPath.CIRCLE,
    fillColor: colour,
    fillOpacity: 1,
    strokeColor: '#ffffff',
    strokeWeight: 2,
    scale,
  };
}

export default function GoogleMapView({
  locations,
  userLocation,
  highlightedKey,
  onHighlight,
  onMarkerClick,
  onPlacePicked,
}: MapViewProps) {
  const [map, setMap] = useState<google.maps.Map | null>(null);
  const searchBox = useRef<google.maps.places.SearchBox | null>(null);
  const highlighted = locations.find((l) => l.key === highlightedKey) ?? null;

  // Show every result (and the user) whenever the results change.
  const fitKey = locations
    .filter((l) => !l.isNew)
    .map((l) => l.key)
    .join(',');
  useEffect(() => {
    if (!map) return;
    const points = locations.filter((l) => !l.isNew).map((l) => ({ lat: l.latitude, lng: l.longitude }));
    if (userLocation) points.push(userLocation);
    if (points.length === 0) return;
    if (points.length === 1) {
      map.setCenter(points[0]!);
      map.setZoom(PLACE_ZOOM);
      return;
    }
    const bounds = new google.maps.LatLngBounds();
    points.forEach((p) => bounds.extend(p));
    map.fitBounds(bounds, 48);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the result identities
  }, [map, fitKey, userLocation]);

  function handlePlacesChanged() {
    const place = searchBox.current?.getPlaces()?.[0];
    const position = place?.geometry?.location;
    if (!place || !position) return;
    const address = place.formatted_address ?? place.name ?? '';
    const coords = { lat: position.lat(), lng: position.lng() };
    map?.panTo(coords);
    map?.setZoom(PLACE_ZOOM);
    onPlacePicked?.(address, coords);
  }

  function markerFor(location: MapLocation) {
    return (
      <MarkerF
        key={location.key}
        position={{ lat: location.latitude, lng: location.longitude }}
        title={location.name}
        icon={circleIcon(MARKER_COLOURS[location.type], location.key === highlightedKey ? 10 : 8)}
        animation={google.maps.Animation.DROP}
        onClick={() => onMarkerClick(location)}
        onMouseOver={() => onHighlight(location.key)}
      />
    );
  }

  return (
    <div className="gmap">
      {onPlacePicked && (
        <StandaloneSearchBox
          onLoad={(box) => (searchBox.current = box)}
          onPlacesChanged={handlePlacesChanged}
        >
          <input
            className="input gmap__search"
            type="text"
            placeholder="Search a place on the map"
            aria-label="Search a place on the map"
          />
        </StandaloneSearchBox>
      )}
      <GoogleMap
        mapContainerStyle={CONTAINER_STYLE}
        center={DEFAULT_CENTER}
        zoom={DEFAULT_ZOOM}
        options={MAP_OPTIONS}
        onLoad={setMap}
        onUnmount={() => setMap(null)}
      >
        {userLocation && (
          <MarkerF
            position={userLocation}
            title="You"
            icon={circleIcon(MARKER_COLOURS.you, 9)}
            animation={google.maps.Animation.BOUNCE}
            zIndex={1000}
          />
        )}
        {locations.map(markerFor)}
        {highlighted && (
          <InfoWindowF
            position={{ lat: highlighted.latitude, lng: highlighted.longitude }}
            options={{ pixelOffset: new google.maps.Size(0, -10) }}
            onCloseClick={() => onHighlight(null)}
          >
            <InfoWindowContent location={highlighted} />
          </InfoWindowF>
        )}
      </GoogleMap>
      <MapLegend showUser={userLocation !== null} />
    </div>
  );
}
