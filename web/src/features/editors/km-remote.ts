import { isRemoteAddress, REMOTE_PLACEHOLDER } from '../../lib/remote-content';
import type { DrawnNode } from './km';

/** Where a topic's held-back image address waits (never saved: it is put back first). */
const HELD = 'nbRemoteImage';

/**
 * The drawn tree with every topic image from another site held back: the topic shows a
 * placeholder, its address kept aside. Answers how many were held.
 */
export function holdRemoteImages(node: DrawnNode, base: string): { tree: DrawnNode; held: number } {
  let held = 0;
  const visit = (at: DrawnNode): DrawnNode => {
    const image = at.data.image;
    const remote = typeof image === 'string' && isRemoteAddress(image, base);
    if (remote) held += 1;
    return {
      ...at,
      data: remote ? { ...at.data, image: REMOTE_PLACEHOLDER, [HELD]: image } : at.data,
      children: at.children.map(visit),
    };
  };
  const tree = visit(node);
  return { tree, held };
}

/** The drawn tree with the held-back image addresses back in place. */
export function releaseRemoteImages(node: DrawnNode): DrawnNode {
  const { [HELD]: held, ...data } = node.data;
  return {
    ...node,
    data: typeof held === 'string' ? { ...data, image: held } : node.data,
    children: node.children.map(releaseRemoteImages),
  };
}
