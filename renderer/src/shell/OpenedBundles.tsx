import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useHostEvent } from '../api/hooks';
import { takeOpenedBundle } from '../components/apps/openedBundle';

/**
 * Hears that the desktop was asked to open a bundle (docs/using/bundles.md#opening-a-bundle-file) on any page, and
 * at start for one opened before the window was there: takes it from the host and goes to Apps, whose install dialog
 * shows it as a dropped file.
 */
export function OpenedBundles() {
  const navigate = useNavigate();
  const take = useCallback(async () => {
    if (await takeOpenedBundle()) void navigate('/apps');
  }, [navigate]);
  useEffect(() => void take(), [take]);
  useHostEvent('bundle.opened', () => void take());
  return null;
}
