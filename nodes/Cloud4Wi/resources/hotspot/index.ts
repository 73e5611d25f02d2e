import { resource } from '../../shared/descriptions';
import * as create from './create';
import * as del from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as getByIdentifier from './getByIdentifier';
import * as update from './update';

export const { description, operations } = resource('hotspot', [create, del, get, getAll, getByIdentifier, update]);
