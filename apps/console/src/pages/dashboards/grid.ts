/** Height of one grid row and the gap between rows and columns, in pixels (styles.css: .dash-grid). */
export const ROW_PX = 76;
export const GAP_PX = 12;
