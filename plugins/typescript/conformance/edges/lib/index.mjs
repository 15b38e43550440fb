import defaultPad, * as pads from "left-pad";

/**
 * Pad every line.
 * @param {string[]} lines
 */
export default function (lines) {
  return lines.map((line) => defaultPad(line, pads.width));
}

export const width = 4, fill = " ";
export { width as size };
