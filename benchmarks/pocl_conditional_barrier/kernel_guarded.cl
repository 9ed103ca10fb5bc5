#pragma OPENCL FP_CONTRACT ON
inline float float_from_bits(unsigned int x) {return as_float(x);}
inline float nan_f32() { return NAN; }
inline float neg_inf_f32() { return -INFINITY; }
inline float inf_f32() { return INFINITY; }
#define halide_maybe_unused(x)
#define __address_space__blur_d_y__1 __global
#define __address_space__non_local_means_sum__1 __global
#define __address_space__repeat_edge__1 __global
__kernel void _kernel_non_local_means_sum__1_s1_c_c_b1_block_id_z(
 __address_space__blur_d_y__1 const float *restrict _blur_d_y__1,
 __address_space__non_local_means_sum__1 float *restrict _non_local_means_sum__1,
 __address_space__repeat_edge__1 const float *restrict _repeat_edge__1,
 const int _blur_d__1_0_shared_size_var,
 const int _blur_d_y__1_stride_2,
 const int _non_local_means__1_extent_0,
 const int _non_local_means__1_extent_1,
 const int _non_local_means__1_min_0,
 const int _non_local_means_sum__1_c_min_realized,
 const int _repeat_edge__1_stride_2,
 const int _t890,
 const int _t891,
 const int _t892,
 const int _t893,
 const int _t895,
 __local int16* _blur_d__1_0)
{
 int _non_local_means_sum__1_s1_c_c_b1_block_id_z = get_group_id(2);
 int _non_local_means_sum__1_s1_y_y_b1_block_id_y = get_group_id(1);
 int _non_local_means_sum__1_s1_x_x_b1_block_id_x = get_group_id(0);
 int _thread_id_z = get_local_id(2);
 int _thread_id_y = get_local_id(1);
 int _thread_id_x = get_local_id(0);
 int _1985 = _non_local_means_sum__1_s1_c_c_b1_block_id_z * 4;
 int _1986 = _1985 + _t890;
 int _1987 = _non_local_means_sum__1_s1_y_y_b1_block_id_y * 2;
 int _1988 = _non_local_means__1_extent_1 - _1987;
 int _1989 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 64;
 int _1990 = _non_local_means__1_extent_0 - _1989;
 bool _1991 = _1987 < _non_local_means__1_extent_1;
 if (_1991)
 {
  // produce blur_d$1
  int _1992 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 64;
  int _1993 = _non_local_means__1_extent_0 - _1992;
  int _1994 = _non_local_means_sum__1_s1_y_y_b1_block_id_y * 2;
  int _1995 = _1994 + 1;
  bool _1996 = _1995 <= _non_local_means__1_extent_1;
  int _1997 = min(_1993, 64);
  int _1998 = _1997 + 3;
  int _1999 = _1998 >> 2;
  bool _2000 = _thread_id_x < _1999;
  bool _2001 = _1996 && _2000;
  int _2002 = _thread_id_x * 4;
  int _2003 = _1992 - _non_local_means__1_extent_0;
  int _2004 = max(_2003, -64);
  int _2005 = _2004 + _non_local_means__1_min_0;
  int _2006 = _2002 + _2005;
  int _2007 = _2006 + 1;
  bool _2008 = _2007 <= _non_local_means__1_min_0;
  bool _2009 = _2001 && _2008;
  if (_2009)
  {
   int _2010 = _thread_id_x * 4;
   int _2011 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 64;
   int _2012 = _2011 - _non_local_means__1_extent_0;
   int _2013 = max(_2012, -64);
   int _2014 = _2013 + _non_local_means__1_min_0;
   int _2015 = _2010 + _2014;
   int _2016 = _2015 + 1;
   bool _2017 = _2016 <= _non_local_means__1_min_0;
   if (_2017)
   {
    int _2018 = min(_1990, 64);
    int _2019 = min(_1988, 2);
    int _2020 = _2018 * _2019;
    float _2021 = float_from_bits(0 /* 0 */);
    int _2022 = _thread_id_x * 4;
    int _2023 = _thread_id_y + 1;
    int _2024 = _2023 * _2020;
    int _2025 = _2020 * -4;
    int _2026 = _thread_id_z + 1;
    int _2027 = _2026 * _2020;
    int _2028 = _2027 * 3;
    int _2029 = _2025 + _2028;
    int _2030 = _2024 + _2029;
    int _2031 = _2022 + _2030;
    ((__local float *)_blur_d__1_0)[_2031] = _2021;
    int _2032 = _thread_id_x * 4;
    int _2033 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 64;
    int _2034 = _2033 - _non_local_means__1_extent_0;
    int _2035 = max(_2034, -64);
    int _2036 = _2035 + _non_local_means__1_min_0;
    int _2037 = _2032 + _2036;
    int _2038 = _2037 + 2;
    bool _2039 = _2038 <= _non_local_means__1_min_0;
    if (_2039)
    {
     int _2040 = min(_1990, 64);
     int _2041 = min(_1988, 2);
     int _2042 = _2040 * _2041;
     float _2043 = float_from_bits(0 /* 0 */);
     int _2044 = _thread_id_x * 4;
     int _2045 = _thread_id_y + 1;
     int _2046 = _2045 * _2042;
     int _2047 = _2042 * -4;
     int _2048 = _thread_id_z + 1;
     int _2049 = _2048 * _2042;
     int _2050 = _2049 * 3;
     int _2051 = _2047 + _2050;
     int _2052 = _2046 + _2051;
     int _2053 = _2044 + _2052;
     int _2054 = _2053 + 1;
     ((__local float *)_blur_d__1_0)[_2054] = _2043;
     int _2055 = _thread_id_x * 4;
     int _2056 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 64;
     int _2057 = _2056 - _non_local_means__1_extent_0;
     int _2058 = max(_2057, -64);
     int _2059 = _2058 + _non_local_means__1_min_0;
     int _2060 = _2055 + _2059;
     int _2061 = _2060 + 3;
     bool _2062 = _2061 <= _non_local_means__1_min_0;
     if (_2062)
     {
      int _2063 = min(_1990, 64);
      int _2064 = min(_1988, 2);
      int _2065 = _2063 * _2064;
      float _2066 = float_from_bits(0 /* 0 */);
      int _2067 = _thread_id_x * 4;
      int _2068 = _thread_id_y + 1;
      int _2069 = _2068 * _2065;
      int _2070 = _2065 * -4;
      int _2071 = _thread_id_z + 1;
      int _2072 = _2071 * _2065;
      int _2073 = _2072 * 3;
      int _2074 = _2070 + _2073;
      int _2075 = _2069 + _2074;
      int _2076 = _2067 + _2075;
      int _2077 = _2076 + 2;
      ((__local float *)_blur_d__1_0)[_2077] = _2066;
      int _2078 = _thread_id_x * 4;
      int _2079 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 64;
      int _2080 = _2079 - _non_local_means__1_extent_0;
      int _2081 = max(_2080, -64);
      int _2082 = _2081 + _non_local_means__1_min_0;
      int _2083 = _2078 + _2082;
      int _2084 = _2083 + 4;
      bool _2085 = _2084 <= _non_local_means__1_min_0;
      if (_2085)
      {
       int _2086 = min(_1990, 64);
       int _2087 = min(_1988, 2);
       int _2088 = _2086 * _2087;
       float _2089 = float_from_bits(0 /* 0 */);
       int _2090 = _thread_id_x * 4;
       int _2091 = _thread_id_y + 1;
       int _2092 = _2091 * _2088;
       int _2093 = _2088 * -4;
       int _2094 = _thread_id_z + 1;
       int _2095 = _2094 * _2088;
       int _2096 = _2095 * 3;
       int _2097 = _2093 + _2096;
       int _2098 = _2092 + _2097;
       int _2099 = _2090 + _2098;
       int _2100 = _2099 + 3;
       ((__local float *)_blur_d__1_0)[_2100] = _2089;
      } // if _2085
     } // if _2062
    } // if _2039
    int _2101 = _non_local_means_sum__1_s1_y_y_b1_block_id_y * 2;
    int _2102 = _2101 + 2;
    bool _2103 = _2102 <= _non_local_means__1_extent_1;
    if (_2103)
    {
     int _2104 = min(_1990, 64);
     int _2105 = min(_1988, 2);
     int _2106 = _2104 * _2105;
     float _2107 = float_from_bits(0 /* 0 */);
     int _2108 = _thread_id_x * 4;
     int _2109 = _thread_id_y + 1;
     int _2110 = _2109 * _2106;
     int _2111 = _thread_id_z + 1;
     int _2112 = _2111 * _2106;
     int _2113 = _2112 * 3;
     int _2114 = _2106 * -4;
     int _2115 = _2104 + _2114;
     int _2116 = _2113 + _2115;
     int _2117 = _2110 + _2116;
     int _2118 = _2108 + _2117;
     ((__local float *)_blur_d__1_0)[_2118] = _2107;
     int _2119 = _thread_id_x * 4;
     int _2120 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 64;
     int _2121 = _2120 - _non_local_means__1_extent_0;
     int _2122 = max(_2121, -64);
     int _2123 = _2122 + _non_local_means__1_min_0;
     int _2124 = _2119 + _2123;
     int _2125 = _2124 + 2;
     bool _2126 = _2125 <= _non_local_means__1_min_0;
     if (_2126)
     {
      int _2127 = min(_1990, 64);
      int _2128 = min(_1988, 2);
      int _2129 = _2127 * _2128;
      float _2130 = float_from_bits(0 /* 0 */);
      int _2131 = _thread_id_x * 4;
      int _2132 = _thread_id_y + 1;
      int _2133 = _2132 * _2129;
      int _2134 = _thread_id_z + 1;
      int _2135 = _2134 * _2129;
      int _2136 = _2135 * 3;
      int _2137 = _2129 * -4;
      int _2138 = _2127 + _2137;
      int _2139 = _2136 + _2138;
      int _2140 = _2133 + _2139;
      int _2141 = _2131 + _2140;
      int _2142 = _2141 + 1;
      ((__local float *)_blur_d__1_0)[_2142] = _2130;
      int _2143 = _thread_id_x * 4;
      int _2144 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 64;
      int _2145 = _2144 - _non_local_means__1_extent_0;
      int _2146 = max(_2145, -64);
      int _2147 = _2146 + _non_local_means__1_min_0;
      int _2148 = _2143 + _2147;
      int _2149 = _2148 + 3;
      bool _2150 = _2149 <= _non_local_means__1_min_0;
      if (_2150)
      {
       int _2151 = min(_1990, 64);
       int _2152 = min(_1988, 2);
       int _2153 = _2151 * _2152;
       float _2154 = float_from_bits(0 /* 0 */);
       int _2155 = _thread_id_x * 4;
       int _2156 = _thread_id_y + 1;
       int _2157 = _2156 * _2153;
       int _2158 = _thread_id_z + 1;
       int _2159 = _2158 * _2153;
       int _2160 = _2159 * 3;
       int _2161 = _2153 * -4;
       int _2162 = _2151 + _2161;
       int _2163 = _2160 + _2162;
       int _2164 = _2157 + _2163;
       int _2165 = _2155 + _2164;
       int _2166 = _2165 + 2;
       ((__local float *)_blur_d__1_0)[_2166] = _2154;
       int _2167 = _thread_id_x * 4;
       int _2168 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 64;
       int _2169 = _2168 - _non_local_means__1_extent_0;
       int _2170 = max(_2169, -64);
       int _2171 = _2170 + _non_local_means__1_min_0;
       int _2172 = _2167 + _2171;
       int _2173 = _2172 + 4;
       bool _2174 = _2173 <= _non_local_means__1_min_0;
       if (_2174)
       {
        int _2175 = min(_1990, 64);
        int _2176 = min(_1988, 2);
        int _2177 = _2175 * _2176;
        float _2178 = float_from_bits(0 /* 0 */);
        int _2179 = _thread_id_x * 4;
        int _2180 = _thread_id_y + 1;
        int _2181 = _2180 * _2177;
        int _2182 = _thread_id_z + 1;
        int _2183 = _2182 * _2177;
        int _2184 = _2183 * 3;
        int _2185 = _2177 * -4;
        int _2186 = _2175 + _2185;
        int _2187 = _2184 + _2186;
        int _2188 = _2181 + _2187;
        int _2189 = _2179 + _2188;
        int _2190 = _2189 + 3;
        ((__local float *)_blur_d__1_0)[_2190] = _2178;
       } // if _2174
      } // if _2150
     } // if _2126
    } // if _2103
   } // if _2017
  } // if _2009
  barrier(0 | CLK_LOCAL_MEM_FENCE);
  int _2191 = 0;
  halide_maybe_unused(_2191);
  int _2192 = _non_local_means_sum__1_s1_y_y_b1_block_id_y * 2;
  int _2193 = _2192 + 1;
  bool _2194 = _2193 <= _non_local_means__1_extent_1;
  int _2195 = min(_1993, 64);
  int _2196 = _2195 + 3;
  int _2197 = _2196 >> 2;
  bool _2198 = _thread_id_x < _2197;
  bool _2199 = _2194 && _2198;
  if (_2199)
  {
   int _2200 = _thread_id_x * 4;
   int _2201 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 64;
   int _2202 = _2201 + _non_local_means__1_min_0;
   int _2203 = _2200 + _2202;
   int _2204 = _thread_id_y + 1;
   int _2205 = _2204 * _blur_d_y__1_stride_2;
   int _2206 = _thread_id_z + 1;
   int _2207 = _2206 * _blur_d_y__1_stride_2;
   int _2208 = _2207 * 3;
   int _2209 = _non_local_means_sum__1_s1_y_y_b1_block_id_y * 2;
   int _2210 = _2209 - _t892;
   int _2211 = _non_local_means__1_extent_0 + 2;
   int _2212 = min(_1990, 64);
   int _2213 = _2201 - _non_local_means__1_extent_0;
   int _2214 = max(_2213, -64);
   int _2215 = _2214 + _non_local_means__1_min_0;
   int _2216 = _2215 + _2200;
   int _2217 = _2216 + 4;
   bool _2218 = _2217 <= _non_local_means__1_min_0;
   int _2219 = _2216 + 3;
   bool _2220 = _2219 <= _non_local_means__1_min_0;
   int _2221 = _2216 + 2;
   bool _2222 = _2221 <= _non_local_means__1_min_0;
   int _2223 = _2216 + 1;
   bool _2224 = _2223 <= _non_local_means__1_min_0;
   if (_2224)
   {
    int _2225 = _2209 + 2;
    bool _2226 = _2225 <= _non_local_means__1_extent_1;
    int _2227 = min(_1988, 2);
    int _2228 = _2227 * _2212;
    int _2229 = _2210 + 49;
    int _2230 = _2229 * _2211;
    int _2231 = _2230 + _t891;
    int _2232 = _2231 + _2208;
    int _2233 = _2232 + _2205;
    int _2234 = _2233 + _2203;
    int _2235 = _2210 + 48;
    int _2236 = _2235 * _2211;
    int _2237 = _2236 + _t891;
    int _2238 = _2237 + _2208;
    int _2239 = _2238 + _2205;
    int _2240 = _2239 + _2203;
    for (int _blur_d__1_s1_patch_dom__x_rebased = 0; _blur_d__1_s1_patch_dom__x_rebased < 0 + 3; _blur_d__1_s1_patch_dom__x_rebased++)
    {
     int _2241 = _thread_id_y + 1;
     int _2242 = _2241 * _2228;
     int _2243 = _2228 * -4;
     int _2244 = _thread_id_z + 1;
     int _2245 = _2244 * _2228;
     int _2246 = _2245 * 3;
     int _2247 = _2243 + _2246;
     int _2248 = _2242 + _2247;
     int _2249 = _2248 + _2200;
     float _2250 = ((__local float *)_blur_d__1_0)[_2249];
     int _2251 = _blur_d__1_s1_patch_dom__x_rebased + _2240;
     float _2252 = _blur_d_y__1[_2251];
     float _2253 = _2250 + _2252;
     ((__local float *)_blur_d__1_0)[_2249] = _2253;
     if (_2222)
     {
      int _2254 = _thread_id_y + 1;
      int _2255 = _2254 * _2228;
      int _2256 = _2228 * -4;
      int _2257 = _thread_id_z + 1;
      int _2258 = _2257 * _2228;
      int _2259 = _2258 * 3;
      int _2260 = _2256 + _2259;
      int _2261 = _2255 + _2260;
      int _2262 = _2261 + _2200;
      int _2263 = _2262 + 1;
      float _2264 = ((__local float *)_blur_d__1_0)[_2263];
      int _2265 = _blur_d__1_s1_patch_dom__x_rebased + _2240;
      int _2266 = _2265 + 1;
      float _2267 = _blur_d_y__1[_2266];
      float _2268 = _2264 + _2267;
      ((__local float *)_blur_d__1_0)[_2263] = _2268;
      if (_2220)
      {
       int _2269 = _thread_id_y + 1;
       int _2270 = _2269 * _2228;
       int _2271 = _2228 * -4;
       int _2272 = _thread_id_z + 1;
       int _2273 = _2272 * _2228;
       int _2274 = _2273 * 3;
       int _2275 = _2271 + _2274;
       int _2276 = _2270 + _2275;
       int _2277 = _2276 + _2200;
       int _2278 = _2277 + 2;
       float _2279 = ((__local float *)_blur_d__1_0)[_2278];
       int _2280 = _blur_d__1_s1_patch_dom__x_rebased + _2240;
       int _2281 = _2280 + 2;
       float _2282 = _blur_d_y__1[_2281];
       float _2283 = _2279 + _2282;
       ((__local float *)_blur_d__1_0)[_2278] = _2283;
       if (_2218)
       {
        int _2284 = _thread_id_y + 1;
        int _2285 = _2284 * _2228;
        int _2286 = _2228 * -4;
        int _2287 = _thread_id_z + 1;
        int _2288 = _2287 * _2228;
        int _2289 = _2288 * 3;
        int _2290 = _2286 + _2289;
        int _2291 = _2285 + _2290;
        int _2292 = _2291 + _2200;
        int _2293 = _2292 + 3;
        float _2294 = ((__local float *)_blur_d__1_0)[_2293];
        int _2295 = _blur_d__1_s1_patch_dom__x_rebased + _2240;
        int _2296 = _2295 + 3;
        float _2297 = _blur_d_y__1[_2296];
        float _2298 = _2294 + _2297;
        ((__local float *)_blur_d__1_0)[_2293] = _2298;
       } // if _2218
      } // if _2220
     } // if _2222
     if (_2226)
     {
      int _2299 = _thread_id_y + 1;
      int _2300 = _2299 * _2228;
      int _2301 = _thread_id_z + 1;
      int _2302 = _2301 * _2228;
      int _2303 = _2302 * 3;
      int _2304 = _2228 * -4;
      int _2305 = _2304 + _2212;
      int _2306 = _2303 + _2305;
      int _2307 = _2300 + _2306;
      int _2308 = _2307 + _2200;
      float _2309 = ((__local float *)_blur_d__1_0)[_2308];
      int _2310 = _blur_d__1_s1_patch_dom__x_rebased + _2234;
      float _2311 = _blur_d_y__1[_2310];
      float _2312 = _2309 + _2311;
      ((__local float *)_blur_d__1_0)[_2308] = _2312;
      if (_2222)
      {
       int _2313 = _thread_id_y + 1;
       int _2314 = _2313 * _2228;
       int _2315 = _thread_id_z + 1;
       int _2316 = _2315 * _2228;
       int _2317 = _2316 * 3;
       int _2318 = _2228 * -4;
       int _2319 = _2318 + _2212;
       int _2320 = _2317 + _2319;
       int _2321 = _2314 + _2320;
       int _2322 = _2321 + _2200;
       int _2323 = _2322 + 1;
       float _2324 = ((__local float *)_blur_d__1_0)[_2323];
       int _2325 = _blur_d__1_s1_patch_dom__x_rebased + _2234;
       int _2326 = _2325 + 1;
       float _2327 = _blur_d_y__1[_2326];
       float _2328 = _2324 + _2327;
       ((__local float *)_blur_d__1_0)[_2323] = _2328;
       if (_2220)
       {
        int _2329 = _thread_id_y + 1;
        int _2330 = _2329 * _2228;
        int _2331 = _thread_id_z + 1;
        int _2332 = _2331 * _2228;
        int _2333 = _2332 * 3;
        int _2334 = _2228 * -4;
        int _2335 = _2334 + _2212;
        int _2336 = _2333 + _2335;
        int _2337 = _2330 + _2336;
        int _2338 = _2337 + _2200;
        int _2339 = _2338 + 2;
        float _2340 = ((__local float *)_blur_d__1_0)[_2339];
        int _2341 = _blur_d__1_s1_patch_dom__x_rebased + _2234;
        int _2342 = _2341 + 2;
        float _2343 = _blur_d_y__1[_2342];
        float _2344 = _2340 + _2343;
        ((__local float *)_blur_d__1_0)[_2339] = _2344;
        if (_2218)
        {
         int _2345 = _thread_id_y + 1;
         int _2346 = _2345 * _2228;
         int _2347 = _thread_id_z + 1;
         int _2348 = _2347 * _2228;
         int _2349 = _2348 * 3;
         int _2350 = _2228 * -4;
         int _2351 = _2350 + _2212;
         int _2352 = _2349 + _2351;
         int _2353 = _2346 + _2352;
         int _2354 = _2353 + _2200;
         int _2355 = _2354 + 3;
         float _2356 = ((__local float *)_blur_d__1_0)[_2355];
         int _2357 = _blur_d__1_s1_patch_dom__x_rebased + _2234;
         int _2358 = _2357 + 3;
         float _2359 = _blur_d_y__1[_2358];
         float _2360 = _2356 + _2359;
         ((__local float *)_blur_d__1_0)[_2355] = _2360;
        } // if _2218
       } // if _2220
      } // if _2222
     } // if _2226
    } // for _blur_d__1_s1_patch_dom__x_rebased
   } // if _2224
  } // if _2199
 } // if _1991
 barrier(0 | CLK_LOCAL_MEM_FENCE);
 int _2361 = 0;
 halide_maybe_unused(_2361);
 int _2362 = max(_thread_id_y, _thread_id_z);
 bool _2363 = _2362 < 1;
 if (_2363)
 {
  // consume blur_d$1
  int _2364 = _thread_id_x * 2;
  int _2365 = _non_local_means_sum__1_s1_y_y_b1_block_id_y * 2;
  int _2366 = min(_1990, 64);
  int _2367 = _t893 - _1986;
  int _2368 = min(_2367, 4);
  int _2369 = max(_2368, 0);
  int _2370 = min(_1988, 2);
  int _2371 = _2370 * _2366;
  int _2372 = _non_local_means__1_extent_0 * _non_local_means__1_extent_1;
  int _2373 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 32;
  int _2374 = _2373 + _thread_id_x;
  int _2375 = _2374 * 2;
  int _2376 = _non_local_means__1_extent_0 - _2375;
  int _2377 = _non_local_means__1_extent_1 - _2365;
  int _2378 = _1986 - _t895;
  int _2379 = _1986 - _non_local_means_sum__1_c_min_realized;
  int _2380 = _non_local_means_sum__1_s1_x_x_b1_block_id_x * 64;
  int _2381 = _2380 + _non_local_means__1_min_0;
  int _2382 = _2381 + _2364;
  for (int _non_local_means_sum__1_s1_s_dom__y_rebased = 0; _non_local_means_sum__1_s1_s_dom__y_rebased < 0 + 3; _non_local_means_sum__1_s1_s_dom__y_rebased++)
  {
   int _2383 = min(_2376, 2);
   int _2384 = max(_2383, 0);
   int _2385 = min(_2377, 2);
   int _2386 = max(_2385, 0);
   int _2387 = _non_local_means_sum__1_s1_s_dom__y_rebased + _2365;
   int _2388 = _non_local_means_sum__1_s1_s_dom__y_rebased * _2371;
   int _2389 = _2388 * 3;
   int _2390 = _2389 + _2364;
   for (int _non_local_means_sum__1_s1_s_dom__x_rebased = 0; _non_local_means_sum__1_s1_s_dom__x_rebased < 0 + 3; _non_local_means_sum__1_s1_s_dom__x_rebased++)
   {
    int _2391 = _non_local_means_sum__1_s1_s_dom__x_rebased - _non_local_means__1_min_0;
    int _2392 = _non_local_means_sum__1_s1_s_dom__x_rebased * _2371;
    int _2393 = _2392 + _2390;
    for (int _non_local_means_sum__1_s1_c_c_i1_c_s1 = 0; _non_local_means_sum__1_s1_c_c_i1_c_s1 < 0 + _2369; _non_local_means_sum__1_s1_c_c_i1_c_s1++)
    {
     int _2394 = _1986 + _non_local_means_sum__1_s1_c_c_i1_c_s1;
     bool _2395 = _2394 < 3;
     int _2396 = _non_local_means_sum__1_s1_c_c_i1_c_s1 + _2379;
     int _2397 = _2396 * _2372;
     int _2398 = _2397 - _non_local_means__1_min_0;
     int _2399 = _non_local_means_sum__1_s1_c_c_i1_c_s1 + _2378;
     int _2400 = _2399 * _repeat_edge__1_stride_2;
     int _2401 = _2400 + _2391;
     for (int _non_local_means_sum__1_s1_y_y_i1_y_s1 = 0; _non_local_means_sum__1_s1_y_y_i1_y_s1 < 0 + _2386; _non_local_means_sum__1_s1_y_y_i1_y_s1++)
     {
      int _2402 = _non_local_means_sum__1_s1_y_y_i1_y_s1 + _2387;
      int _2403 = _2402 + 1;
      int _2404 = _non_local_means__1_extent_0 + 4;
      int _2405 = _2403 * _2404;
      int _2406 = _2405 + _2401;
      int _2407 = _non_local_means_sum__1_s1_y_y_i1_y_s1 + _2365;
      int _2408 = _2407 * _non_local_means__1_extent_0;
      int _2409 = _2408 + _2398;
      int _2410 = _non_local_means_sum__1_s1_y_y_i1_y_s1 * _2366;
      int _2411 = _2410 + _2393;
      for (int _non_local_means_sum__1_s1_x_x_i1_x_s1 = 0; _non_local_means_sum__1_s1_x_x_i1_x_s1 < 0 + _2384; _non_local_means_sum__1_s1_x_x_i1_x_s1++)
      {
       int _2412 = _non_local_means_sum__1_s1_x_x_i1_x_s1 + _2382;
       int _2413 = _2412 + _2409;
       int _2414 = _non_local_means_sum__1_s1_x_x_i1_x_s1 + _2411;
       float _2415 = ((__local float *)_blur_d__1_0)[_2414];
       float _2416 = float_from_bits(3241286729 /* -11.1319 */);
       float _2417 = _2415 * _2416;
       float _2418 = floor(_2417);
       float _2419 = float_from_bits(3237407200 /* -7.71605 */);
       float _2420 = _2415 * _2419;
       float _2421 = float_from_bits(1060205080 /* 0.693147 */);
       float _2422 = _2418 * _2421;
       float _2423 = _2420 - _2422;
       float _2424 = _2423 * _2423;
       float _2425 = _non_local_means_sum__1[_2413];
       int _2426 = _2412 + _2406;
       int _2427 = _2426 + 1;
       float _2428 = _repeat_edge__1[_2427];
       float _2429 = float_from_bits(1065353216 /* 1 */);
       float _2430 = (float)(_2395 ? _2428 : _2429);
       float _2431 = float_from_bits(1012357078 /* 0.0131435 */);
       float _2432 = _2424 * _2431;
       float _2433 = float_from_bits(1043122660 /* 0.168739 */);
       float _2434 = _2432 + _2433;
       float _2435 = _2434 * _2424;
       float _2436 = _2435 + _2429;
       float _2437 = _2436 * _2423;
       float _2438 = float_from_bits(1024870371 /* 0.0366897 */);
       float _2439 = _2424 * _2438;
       float _2440 = float_from_bits(1056954714 /* 0.499705 */);
       float _2441 = _2439 + _2440;
       float _2442 = _2441 * _2424;
       float _2443 = _2437 + _2442;
       float _2444 = _2443 + _2429;
       int _2445 = (int)(_2418);
       int _2446 = min(_2445, 128);
       int _2447 = max(_2446, -127);
       int _2448 = _2447 * 8388608;
       int _2449 = _2448 + 1065353216;
       float _2450 = as_float(_2449);
       float _2451 = _2444 * _2450;
       float _2452 = _2430 * _2451;
       float _2453 = _2425 + _2452;
       _non_local_means_sum__1[_2413] = _2453;
      } // for _non_local_means_sum__1_s1_x_x_i1_x_s1
     } // for _non_local_means_sum__1_s1_y_y_i1_y_s1
    } // for _non_local_means_sum__1_s1_c_c_i1_c_s1
   } // for _non_local_means_sum__1_s1_s_dom__x_rebased
  } // for _non_local_means_sum__1_s1_s_dom__y_rebased
 } // if _2363
} // kernel _kernel_non_local_means_sum__1_s1_c_c_b1_block_id_z
