// The map's grid: at level L a cell is 90 / 2^L degrees square (a quarter of a 256-pixel tile at
// zoom L), so cells nest exactly from level to level and a cell's column is floor(lng / size),
// computed the same way in SQL and here. The projection keeps levels STORED_MIN..STORED_MAX; a
// coarser answer sums STORED_MIN cells. Shared with the client, which puts a live item into the
// cluster of its cell.

export const STORED_MIN = 10;
export const STORED_MAX = 16;
/** From this zoom every distinct location is its own cluster. */
export const EXACT_ZOOM = 17;
export const MAX_CLUSTERS = 500;

export type Box = { west: number; south: number; east: number; north: number };

export function cellSize(level: number): number {
  return 90 / 2 ** level;
}

/** How many cells of a level a box touches: an upper bound on the clusters it answers with. */
function cellsTouched(box: Box, level: number): number {
  const size = cellSize(level);
  const columns = Math.floor(box.east / size) - Math.floor(box.west / size) + 1;
  const rows = Math.floor(box.north / size) - Math.floor(box.south / size) + 1;
  return columns * rows;
}

/** The finest level at or below the zoom (and the finest stored) whose cells stay within MAX_CLUSTERS. */
export function answerLevel(box: Box, zoom: number): number {
  let level = Math.min(zoom, STORED_MAX);
  while (level > 0 && cellsTouched(box, level) > MAX_CLUSTERS) level--;
  return level;
}

/** Cell index ranges (inclusive) of whole cells of a level lying strictly inside the box. */
export type Interior = { level: number; cx: [number, number]; cy: [number, number] };

/**
 * Cells whose column is above floor(west / size) hold only longitudes above west (division is
 * monotonic), and likewise on every side, so an item the grid counts in them is inside the box
 * whatever the rounding. Null when no whole cell fits.
 */
export function interiorOf(box: Box, level: number): Interior | null {
  const size = cellSize(level);
  const cx: [number, number] = [Math.floor(box.west / size) + 1, Math.floor(box.east / size) - 1];
  const cy: [number, number] = [Math.floor(box.south / size) + 1, Math.floor(box.north / size) - 1];
  return cx[0] > cx[1] || cy[0] > cy[1] ? null : { level, cx, cy };
}
