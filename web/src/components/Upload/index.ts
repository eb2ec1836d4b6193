export { default as SingleImageUpload, type SingleImageUploadProps } from './SingleImageUpload';
export { default as MultiImageUpload, type MultiImageUploadProps } from './MultiImageUpload';
export { default as FileUpload, type FileUploadProps, type QueueItem, type QueueStatus, type Uploader } from './FileUpload';
export * from './core';
