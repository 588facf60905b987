import { ShareLayout } from '../features/share/pages/ShareLayout';
import { Registries } from './Registries';

/** The share pages' layout route, with the registries their browser reads. */
export function ShareRoot() {
  return (
    <Registries>
      <ShareLayout />
    </Registries>
  );
}
