// A place on the map, as the search, the map and the forms' Location button and map share it. The
// API's bodies and rows name the same pair latitude and longitude.
export type Coordinates = { lat: number; lng: number };

/** The body fields of a position sent to the API (none when there is no position). */
export function positionFields(position: Coordinates | null): { latitude?: number; longitude?: number } {
  return position ? { latitude: position.lat, longitude: position.lng } : {};
}

/** A position as the forms show it: latitude, longitude. */
export function formatCoordinates({ lat, lng }: Coordinates): string {
  return `${lat.toFixed(5)}, ${lng.toFixed(5)}`;
}
