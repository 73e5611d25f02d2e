import { resource } from '../../shared/descriptions';
import * as revoke from './revoke';

export const { description, operations } = resource('token', [revoke]);
