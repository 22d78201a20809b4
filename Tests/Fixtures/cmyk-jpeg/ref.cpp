// Writes what OpenCV's imdecode gives for a file (colour and gray) as PNG.
#include <opencv2/imgcodecs.hpp>
#include <cstdio>
int main(int argc, char **argv) {
    cv::Mat c = cv::imread(argv[1], cv::IMREAD_COLOR), g = cv::imread(argv[1], cv::IMREAD_GRAYSCALE);
    if (c.empty()) { std::puts("empty"); return 1; }
    cv::imwrite(argv[2], c); if (argc > 3) cv::imwrite(argv[3], g);
    std::printf("%dx%d\n", c.cols, c.rows);
}
