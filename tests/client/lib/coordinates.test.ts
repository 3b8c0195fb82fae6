import { describe, expect, it } from 'vitest';
import { formatCoordinates, positionFields } from '../../../client/src/lib/coordinates.ts';

describe('coordinates', () => {
  it('sends a position to the API as latitude and longitude, and nothing without one', () => {
    expect(positionFields({ lat: 40.7128, lng: -74.006 })).toEqual({ latitude: 40.7128, longitude: -74.006 });
    expect(positionFields(null)).toEqual({});
  });

  it('shows a position as latitude, longitude', () => {
    expect(formatCoordinates({ lat: 40.712812, lng: -74.00601 })).toBe('40.71281, -74.00601');
  });
});
