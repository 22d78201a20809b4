/* Rewrites a CMYK JPEG as a YCCK one (same stored CMYK values, YCCK colour transform). */
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
    struct jpeg_decompress_struct d; struct jpeg_compress_struct c; struct jpeg_error_mgr e1, e2;
    d.err = jpeg_std_error(&e1); jpeg_create_decompress(&d); jpeg_stdio_src(&d, in); jpeg_read_header(&d, TRUE);
    d.out_color_space = JCS_CMYK; jpeg_start_decompress(&d);
    c.err = jpeg_std_error(&e2); jpeg_create_compress(&c); jpeg_stdio_dest(&c, out);
    c.image_width = d.output_width; c.image_height = d.output_height; c.input_components = 4; c.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&c); jpeg_set_colorspace(&c, JCS_YCCK); jpeg_set_quality(&c, atoi(argv[3]), TRUE);
    jpeg_start_compress(&c, TRUE);
    unsigned char *row = malloc(d.output_width * 4);
    while (d.output_scanline < d.output_height) { jpeg_read_scanlines(&d, &row, 1); jpeg_write_scanlines(&c, &row, 1); }
    jpeg_finish_compress(&c); jpeg_finish_decompress(&d); fclose(out); return 0;
}
