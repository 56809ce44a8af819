/** Where the timeline puts a moment and a row: shared by the timeline and what it draws in its rows. */
export interface Scale {
  x(at: string | number): number;
  t0: number;
  t1: number;
}
