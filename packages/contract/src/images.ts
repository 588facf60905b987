import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { publicShareQuery } from './share.ts';
import { flag } from './validation.ts';

// Images (API-NOTES §1.6, §1.7, §1.12): thumbnails, covers, images converted for viewing,
// avatars, what a photo says about itself, and the WebP storage setting.

/** spec §7: thumbnails are at most this many pixels on their longer side. */
export const THUMBNAIL_SIZE = 256;
/** Camera RAW photos: the server develops them into pictures to show (thumbnails, the gallery). */
export const RAW_PHOTO_SUFFIXES = [
  'dng',
  'cr2',
  'nef',
  'arw',
  'raf',
  'orf',
  'rw2',
  'pef',
  'srw',
] as const;
/** Avatars are square, this many pixels a side. */
export const AVATAR_SIZE = 128;

const id = z.string().max(64);

/** `GET /view/thumbnail?id&showCover`, `/view/cover?id`, `/view/image?id`. */
export const imageQuery = z.object({ id, showCover: flag().optional() }).passthrough();
export const avatarParams = z.object({ username: z.string().max(255) });
/**
 * `GET /view/thumbnail/{name}?id=`: the original image viewer's strip names the file in the
 * address; the id alone decides what is drawn.
 */
export const namedThumbnailParams = z.object({ name: z.string().max(1024) });
/** `PUT /user/avatar`: one of one's own images as the avatar; without `fileId`, the initial. */
export const avatarChoiceQuery = z.object({ fileId: id.optional() });
/** The largest picture taken as an avatar. */
export const MAX_AVATAR_BYTES = 10 * 1024 * 1024;
/** The folder an uploaded avatar is kept in, in one's own drive. */
export const AVATAR_FOLDER = 'Avatars';

/** The visitors' twins: the share's own names and the file in it. */
export const publicImageQuery = publicShareQuery.extend({
  id: id.optional(),
  fileId: id.optional(),
  path: z.string().max(4096).optional(),
  name: z.string().max(1024).optional(),
  showCover: flag().optional(),
});

/** A few facts from a photo's EXIF block, as its camera wrote them. */
export const exifFacts = z.object({
  make: z.string().optional(),
  model: z.string().optional(),
  lens: z.string().optional(),
  /** `yyyy-MM-dd HH:mm:ss`, the camera's own clock */
  takenAt: z.string().optional(),
  /** seconds */
  exposureTime: z.number().optional(),
  fNumber: z.number().optional(),
  iso: z.number().optional(),
  /** millimetres */
  focalLength: z.number().optional(),
  orientation: z.number().optional(),
  software: z.string().optional(),
});
export type ExifFacts = z.infer<typeof exifFacts>;

/** What is recorded of an image: its size as shown (after its orientation) and its EXIF. */
export const imageFacts = z.object({
  width: z.number(),
  height: z.number(),
  format: z.string(),
  exif: exifFacts.optional(),
});
export type ImageFacts = z.infer<typeof imageFacts>;

/** `GET /view/image/info?id`: null when the file is no image Nimbus can read. */
export const imageInfoAnswer = imageFacts.nullable();

/** `GET/PUT /cloud/setting/webp`: uploaded photos stored as WebP (off by default). */
export const webpSetting = z.object({ enable: z.boolean() });
export const webpSettingBody = z.object({ enable: flag() });

/** General settings: uploaded photos stored as WebP. */
export const webpApi = {
  setting: endpoint({
    method: 'GET',
    path: '/cloud/setting/webp',
    answer: webpSetting,
    access: 'user',
  }),
  setSetting: endpoint({
    method: 'PUT',
    path: '/cloud/setting/webp',
    body: webpSettingBody,
    answer: null,
    access: 'user',
    authority: 'cloud:set:update',
  }),
};

// ---- endpoints ------------------------------------------------------------------------------

/**
 * A picture's bytes the browser fetches by its address (`<img>` sends no header): the session
 * cookie signs it in, as does a token in the query.
 */
const ownPicture = (path: string) =>
  endpoint({
    method: 'GET',
    path,
    query: imageQuery,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  });

/** The owner's images: thumbnails, covers, images to view, their facts, and avatars. */
export const imagesApi = {
  /** A thumbnail of one's own file (or one in a mounted share). */
  thumbnail: ownPicture('/view/thumbnail'),
  /** The same, the original image viewer's strip naming the file in the address. */
  namedThumbnail: endpoint({
    method: 'GET',
    path: '/view/thumbnail/:name',
    params: namedThumbnailParams,
    query: imageQuery,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  }),
  /** The cover of an audio or video file, or of an image. */
  cover: ownPicture('/view/cover'),
  /** An image converted for viewing (RAW, HEIC, TIFF and the like), else the image itself. */
  image: ownPicture('/view/image'),
  /** What a photo says about itself. */
  imageInfo: endpoint({
    method: 'GET',
    path: '/view/image/info',
    query: imageQuery,
    answer: imageInfoAnswer,
    access: 'user',
  }),
  /** A person's avatar: share pages show it too, so anyone may see it. */
  avatar: endpoint({
    method: 'GET',
    path: '/view/thumbnail/user/:username',
    params: avatarParams,
    answer: 'bytes',
    access: 'public',
  }),
  /** One of one's own images as the avatar; without `fileId`, the initial. */
  chooseAvatar: endpoint({
    method: 'PUT',
    path: '/user/avatar',
    query: avatarChoiceQuery,
    answer: z.string().nullable(),
    access: 'user',
  }),
  /** A picture uploaded as the avatar: a multipart form with one part, `file`. */
  uploadAvatar: endpoint({
    method: 'POST',
    path: '/user/avatar/upload',
    answer: z.string(),
    access: 'user',
    multipart: true,
  }),
};

const sharedPicture = (path: string) =>
  endpoint({
    method: 'GET',
    path,
    query: publicImageQuery,
    answer: 'bytes',
    access: 'public',
  });

/** The visitors' twins of the owner's images, for a file of a share. */
export const imagesVisitorApi = {
  thumbnail: sharedPicture('/public/s/view/thumbnail'),
  cover: sharedPicture('/public/s/view/cover'),
  image: sharedPicture('/public/s/view/image'),
  imageInfo: endpoint({
    method: 'GET',
    path: '/public/s/view/image/info',
    query: publicImageQuery,
    answer: imageInfoAnswer,
    access: 'public',
  }),
};
