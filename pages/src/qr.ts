import { encode } from 'uqr';

/** A QR code of `text` as SVG drawn with DOM calls (Trusted Types refuses markup strings); colours from site.css. */

const SVG = 'http://www.w3.org/2000/svg';
const QUIET_ZONE = 4;

export function drawQrCode(target: HTMLElement, text: string): SVGSVGElement {
  // M: 15% of the code may be damaged or covered and it still scans; a link stays at version 6 or less.
  const { data, size } = encode(text, { ecc: 'M', border: QUIET_ZONE });
  const modules: string[] = [];
  data.forEach((row, y) => row.forEach((dark, x) => dark && modules.push(`M${x} ${y}h1v1h-1z`)));

  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('shape-rendering', 'crispEdges');
  const background = document.createElementNS(SVG, 'rect');
  background.setAttribute('class', 'qr-light');
  background.setAttribute('width', String(size));
  background.setAttribute('height', String(size));
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('class', 'qr-dark');
  path.setAttribute('d', modules.join(''));
  svg.append(background, path);
  target.replaceChildren(svg);
  return svg;
}
